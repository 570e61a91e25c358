import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cleanEnv, type CliRun } from './cli.ts'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** The tarball as `npm pack --json` describes it. */
export interface Tarball {
  filename: string
  size: number
  unpackedSize: number
  files: string[]
}

export interface PackedInstall {
  tarball: Tarball
  /** A temporary folder holding the tarball, `installed/` and anything else a test puts there. */
  root: string
  /** An ES module project whose dependencies are the tarball and `beside`, installed as a user installs them. */
  installed: string
  remove: () => void
}

/**
 * Packs this checkout and installs the tarball into a fresh project, with the packages `beside`
 * (this checkout's versions of them, so npm's cache has them). Scripts are off: `npm test` has
 * just built dist/, and the prepack/prepare rebuild would rewrite dist/ while the rest of the
 * suite runs from it; off for the install too, as the Dockerfile does (nothing at runtime needs one).
 */
export async function packAndInstall(beside: readonly string[] = []): Promise<PackedInstall> {
  const root = mkdtempSync(join(tmpdir(), 'novu-mock-pack-'))
  const remove = () => rmSync(root, { recursive: true, force: true })
  try {
    const [report] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', root], REPO)) as [PackReport]
    const installed = join(root, 'installed')
    mkdirSync(installed)
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'novu-mock-install-check', private: true, type: 'module' }))
    const packages = [join(root, report.filename), ...beside.map((name) => `${name}@${installedVersion(name)}`)]
    await npm(['install', ...packages, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], installed)
    const tarball = { filename: report.filename, size: report.size, unpackedSize: report.unpackedSize, files: report.files.map((file) => file.path) }
    return { tarball, root, installed, remove }
  } catch (error) {
    remove()
    throw error
  }
}

/** The version of a package this checkout has installed. */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
}

/** The image's runtime stage, laid out here: the package's folder and a bin folder for PATH. */
export interface ImageInstall {
  app: string
  bin: string
}

/**
 * What the Dockerfile's runtime stage does, outside docker: the tarball unpacked as /opt/novu-mock
 * is, the lockfile beside it, `npm ci --omit=dev` (no scripts), and `novu-mock` on PATH linking to
 * the package's bin as /usr/local/bin/novu-mock does.
 */
export async function installAsImage(install: PackedInstall): Promise<ImageInstall> {
  const app = join(install.root, 'image', 'opt-novu-mock')
  const bin = join(install.root, 'image', 'bin')
  mkdirSync(app, { recursive: true })
  mkdirSync(bin)
  const unpacked = await run('tar', ['-xzf', join(install.root, install.tarball.filename), '-C', app, '--strip-components=1'], { cwd: app })
  if (unpacked.code !== 0) throw new Error(`tar exited ${unpacked.code}:\n${unpacked.stderr}`)
  copyFileSync(join(REPO, 'package-lock.json'), join(app, 'package-lock.json'))
  await npm(['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], app)
  symlinkSync(join(app, 'bin', 'novu-mock.js'), join(bin, 'novu-mock'))
  return { app, bin }
}

interface PackReport {
  filename: string
  size: number
  unpackedSize: number
  files: { path: string }[]
}

/** Runs a command to its end, with its exit code and output. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
  })
}

/** npm's stdout; a failure throws with its stderr, which says why. */
async function npm(args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await run('npm', args, { cwd })
  if (code !== 0) throw new Error(`npm ${args.join(' ')} exited ${code}:\n${stderr}`)
  return stdout
}
