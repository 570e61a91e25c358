// @ts-check
// `npm start` in a checkout: build only when a source is newer than the build. The build takes
// seconds; the built CLI answers in a fraction of one. Plain JavaScript, so it runs before any build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What `npm run build` reads (the pages under src/ are served as they are, but a rebuild for them costs only time). */
export const BUILD_INPUTS = ['src', 'fixtures', 'spec', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
/** The build's last output: `npm run build` writes it only once every earlier step has succeeded. */
export const BUILD_OUTPUT = 'dist/bundle/cli.js'

/**
 * Whether `root`'s build is missing or older than any of its inputs.
 * @param {string} root
 * @returns {boolean}
 */
export function buildIsStale(root) {
  const output = join(root, BUILD_OUTPUT)
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return BUILD_INPUTS.some((input) => newestChange(join(root, input)) > built)
}

/**
 * The latest modification time of a file, or of any file under a folder; 0 when it does not exist.
 * @param {string} path
 * @returns {number}
 */
function newestChange(path) {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  if (buildIsStale(root)) {
    process.stderr.write('novu-mock: sources changed since the last build; building first\n')
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' })
    process.exitCode = build.status ?? 1
  }
}
