import { randomUUID } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { delimiter, join, relative, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv } from '../helpers/cli.ts'
import { runtimeStage } from '../helpers/dockerfile.ts'
import { freePort } from '../helpers/free-port.ts'
import { packAndInstall, REPO, run, type PackedInstall } from '../helpers/packed-install.ts'
import { serveCommand, type Serving } from '../helpers/serve-command.ts'

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
        'bin/novu-mock.js',
        'dist/bundle/cli.js',
        'dist/bundle/index.js',
        'dist/src/index.d.ts',
        'dist/fixtures/seed.js',
        'dist/contract/index.json',
        'spec/openapi.yaml',
        'spec/admin.yaml',
        'fixtures/subscribers.json',
        'fixtures/integrations.json',
        'fixtures/messages.json',
        'src/admin/ui/index.html',
        'src/reference/page/index.html',
      ]),
    )
    const runtime = /^(package\.json|README\.md|bin\/|dist\/(bundle|src|fixtures|contract|seeds)\/|spec\/|fixtures\/[^/]+\.json$|src\/admin\/ui\/|src\/reference\/page\/)/
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
    const allowed = /^(typescript\/lib\/|@types\/node\/|undici-types\/|novu-mock\/dist\/src\/|\.\.\/example\.ts$)/
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

describe('npx novu-mock, from the installed tarball', () => {
  it('prints the package version for --version', async () => {
    expect(await run('npx', ['novu-mock', '--version'], { cwd: install.installed })).toMatchObject({ code: 0, stdout: `${VERSION}\n` })
  }, SLOW)

  it('serves the API and the admin health, and the static pages from inside the installed package', async () => {
    const url = await serve('npx', ['novu-mock', '--port', String(await freePort())], { cwd: install.installed, env: cleanEnv() }).url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/)
    expect(await status(`${url}/__admin/health`)).toBe(200)
    expect(await status(`${url}/v2/subscribers/demo-subscriber-1`, AUTH)).toBe(200)
    for (const page of ['/docs', '/docs/swagger-ui/swagger-ui-bundle.js', '/openapi.json', '/__admin/ui/', '/__admin/ui/inspector.js']) {
      expect([page, await status(`${url}${page}`)]).toEqual([page, 200])
    }
  }, SLOW)
})

/**
 * The image cannot be built here (no registry for node:20-slim), so its last stage's ENV,
 * ENTRYPOINT + CMD and HEALTHCHECK are read from the Dockerfile and run against the installed
 * tarball: its bin folder on PATH stands for the global install, a scratch folder for WORKDIR.
 * The server binds 0.0.0.0 as in the image, which is what closes /__admin without a token.
 */
describe('the Docker image, its commands run from the installed tarball', () => {
  const imageEnv = (extra: Record<string, string>) => {
    const stage = runtimeStage(join(REPO, 'Dockerfile'))
    const PATH = [join(install.installed, 'node_modules', '.bin'), process.env.PATH].join(delimiter)
    return { stage, env: cleanEnv({ ...stage.env, PATH, NOVU_MOCK_LOG_LEVEL: 'warn', ...extra }) }
  }

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
    expect(await status(`${local}/v2/subscribers/demo-subscriber-1`, AUTH)).toBe(200)
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
