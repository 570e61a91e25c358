import { randomUUID } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { delimiter, join, relative, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv } from '../helpers/cli.ts'
import { runtimeStage } from '../helpers/dockerfile.ts'
import { freePort } from '../helpers/free-port.ts'
import { installAsImage, packAndInstall, REPO, run, type ImageInstall, type PackedInstall } from '../helpers/packed-install.ts'
import { serveCommand, type Serving } from '../helpers/serve-command.ts'
import { ADA } from '../helpers/well-known.ts'

// npm pack and npm install take seconds, more on a busy 2-core machine: generous, well over what they need.
const SLOW = 120_000
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version
const AUTH = { Authorization: 'ApiKey k' }

let install: PackedInstall
const servers: Serving[] = []

function serve(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Serving {
  const serving = serveCommand(command, args, options)
  servers.push(serving)
  return serving
}

/** A lockfile's packages by path (`node_modules/express`), with their versions. */
function lockedPackages(file: string): Record<string, string> {
  const { packages } = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, { version?: string }> }
  return Object.fromEntries(Object.entries(packages).filter(([path]) => path !== '').map(([path, entry]) => [path, entry.version ?? '']))
}

const status = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).status

beforeAll(async () => {
  // The only packages beside novu-mock: those a TypeScript user's project has at the least.
  install = await packAndInstall(['typescript', '@types/node'])
}, SLOW)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  install?.remove()
}, SLOW)

describe('npm pack', () => {
  it('holds what the server reads at runtime, and no sources, tests or build state', () => {
    const { files } = install.tarball
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'bin/novu-mock.js',
        'dist/bundle/cli.js',
        'dist/bundle/index.js',
        'dist/src/index.d.ts',
        'dist/contract/index.json',
        'spec/openapi.yaml',
        'spec/admin.yaml',
        'fixtures/subscribers.json',
        'fixtures/integrations.json',
        'fixtures/messages.json',
        'src/admin/ui/index.html',
        'src/web/page/index.html',
      ]),
    )
    const runtime = /^(package\.json|README\.md|LICENSE|bin\/|dist\/(bundle|src|contract|seeds)\/|spec\/|fixtures\/[^/]+\.json$|src\/admin\/ui\/|src\/web\/page\/)/
    expect(files.filter((file) => file.startsWith('dist/seeds/'))).toHaveLength(2)
    expect(files.filter((file) => !runtime.test(file))).toEqual([])
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([])
    // The bundle is what runs; of dist/src/ only the declarations of the package root ship.
    expect(files.filter((file) => file.startsWith('dist/src/') && !file.endsWith('.d.ts'))).toEqual([])
  })
})

describe("import from 'novu-mock', in a strict TypeScript project beside the installed tarball", () => {
  const CONSUMER = join(REPO, 'test', 'packaging', 'consumer')
  const tsc = (...args: string[]) => run(join(install.installed, 'node_modules', '.bin', 'tsc'), ['-p', '.', ...args], { cwd: install.installed })

  beforeAll(() => {
    for (const file of ['example.ts', 'tsconfig.json']) copyFileSync(join(CONSUMER, file), join(install.installed, file))
  })

  it('typechecks with skipLibCheck off, reading no types but its own, TypeScript’s and @types/node’s', async () => {
    expect(await tsc()).toMatchObject({ code: 0, stdout: '' })
    const listed = await tsc('--listFilesOnly')
    expect(listed.code).toBe(0)
    const read = listed.stdout.trim().split('\n').map((file) => relative(join(install.installed, 'node_modules'), file).split(sep).join('/'))
    // express, Ajv, pino and the rest are dependencies, but their types are never part of the surface.
    // `buffer` is @types/node's own `import 'buffer'` finding the npm package of that name, which the
    // optional better-sqlite3 brings into the install: none of it is reached from the package's types.
    const allowed = /^(typescript\/lib\/|@types\/node\/|undici-types\/|buffer\/index\.d\.ts$|novu-mock\/dist\/src\/|\.\.\/example\.ts$)/
    expect(read.filter((file) => !allowed.test(file))).toEqual([])
    expect(read).toContain('novu-mock/dist/src/index.d.ts')
  }, SLOW)

  it('runs: starts a mock, calls it, reads and verifies the tenant, resets and closes', async () => {
    expect(await tsc()).toMatchObject({ code: 0 })
    const ran = await run('node', [join('out', 'example.js')], { cwd: install.installed })
    expect(ran).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(ran.stdout)).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      read: false,
      verification: 'Expected at least 1 call(s) of markMessagesAs, matched 0',
    })
  }, SLOW)
})

describe('installing', () => {
  // @scarf/scarf, swagger-ui-dist's dependency, reports installs from a postinstall hook unless a
  // package in the chain above it, or the project being installed, sets scarfSettings.enabled false.
  it('turns swagger-ui-dist’s install-time analytics off, in this checkout and for anyone installing the package', () => {
    const installedManifest = join(install.installed, 'node_modules', 'novu-mock', 'package.json')
    for (const manifest of [join(REPO, 'package.json'), installedManifest]) {
      expect([manifest, (JSON.parse(readFileSync(manifest, 'utf8')) as { scarfSettings?: unknown }).scarfSettings]).toEqual([manifest, { enabled: false }])
    }
  })
})

describe('npx novu-mock, from the installed tarball', () => {
  it('prints the package version for --version', async () => {
    expect(await run('npx', ['novu-mock', '--version'], { cwd: install.installed })).toMatchObject({ code: 0, stdout: `${VERSION}\n` })
  }, SLOW)

  it('serves the API and the admin health, and the static pages from inside the installed package', async () => {
    const url = await serve('npx', ['novu-mock', '--port', String(await freePort())], { cwd: install.installed, env: cleanEnv() }).url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/)
    expect(await status(`${url}/__admin/health`)).toBe(200)
    expect(await status(`${url}/v2/subscribers/${ADA}`, AUTH)).toBe(200)
    for (const page of ['/docs', '/docs/swagger-ui/swagger-ui-bundle.js', '/openapi.json', '/__admin/ui/', '/__admin/ui/inspector.js']) {
      expect([page, await status(`${url}${page}`)]).toEqual([page, 200])
    }
  }, SLOW)
})

/**
 * The image cannot be built here (no registry for node:20-slim), so its last stage is laid out
 * as its install does it (installAsImage), and its ENV, ENTRYPOINT + CMD and HEALTHCHECK are read
 * from the Dockerfile and run there: a bin folder on PATH stands for /usr/local/bin, a scratch
 * folder for WORKDIR. The server binds 0.0.0.0 as in the image, which closes /__admin without a token.
 */
describe('the Docker image, its commands run as its runtime stage installs them', () => {
  let image: ImageInstall
  beforeAll(async () => {
    image = await installAsImage(install)
  }, SLOW)

  const imageEnv = (extra: Record<string, string>) => {
    const stage = runtimeStage(join(REPO, 'Dockerfile'))
    const PATH = [image.bin, process.env.PATH].join(delimiter)
    return { stage, env: cleanEnv({ ...stage.env, PATH, NOVU_MOCK_LOG_LEVEL: 'warn', ...extra }) }
  }

  it('installs exactly the versions package-lock.json pins, runtime dependencies only', () => {
    const { stage } = imageEnv({})
    expect(stage.copy).toContain('package-lock.json ./')
    expect(stage.run.filter((command) => /\bnpm (install|i)\b/.test(command))).toEqual([])
    expect(stage.run.some((command) => command.includes('npm ci --omit=dev'))).toBe(true)
    const locked = lockedPackages(join(REPO, 'package-lock.json'))
    const installed = lockedPackages(join(image.app, 'node_modules', '.package-lock.json'))
    expect(Object.keys(installed).length).toBeGreaterThan(50)
    for (const [path, version] of Object.entries(installed)) expect([path, version]).toEqual([path, locked[path]])
    expect(installed).not.toHaveProperty(['node_modules/vitest'])
    expect(installed['node_modules/express']).toBe(locked['node_modules/express'])
  })

  it.each([
    ['without an admin token', undefined],
    ['with NOVU_MOCK_ADMIN_TOKEN', randomUUID()],
  ])('starts as the image does and passes its HEALTHCHECK, %s', async (_, token) => {
    const port = String(await freePort())
    const { stage, env } = imageEnv({ NOVU_MOCK_PORT: port, ...(token === undefined ? {} : { NOVU_MOCK_ADMIN_TOKEN: token }) })
    expect(stage.env.NOVU_MOCK_HOST).toBe('0.0.0.0')
    const workdir = join(install.root, `workdir-${port}`)
    mkdirSync(workdir)
    const [command, ...args] = stage.command as [string, ...string[]]
    expect(await serve(command, args, { cwd: workdir, env }).url).toBe(`http://0.0.0.0:${port}`)

    const [check, ...checkArgs] = stage.healthcheck as [string, ...string[]]
    expect(await run(check, checkArgs, { cwd: workdir, env })).toMatchObject({ code: 0 })
    const local = `http://127.0.0.1:${port}`
    expect(await status(`${local}/v2/subscribers/${ADA}`, AUTH)).toBe(200)
    // The rest of /__admin answers only to the token on this host.
    expect(await status(`${local}/__admin/state`, AUTH)).toBe(404)
    if (token !== undefined) expect(await status(`${local}/__admin/state`, { ...AUTH, 'x-admin-token': token })).toBe(200)
  }, SLOW)

  it('fails its HEALTHCHECK when nothing answers on NOVU_MOCK_PORT', async () => {
    const { stage, env } = imageEnv({ NOVU_MOCK_PORT: String(await freePort()) })
    const [check, ...checkArgs] = stage.healthcheck as [string, ...string[]]
    expect(await run(check, checkArgs, { cwd: install.root, env })).toMatchObject({ code: 1 })
  }, SLOW)
})
