import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { get, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import type { TenantState } from '../../src/store/records.ts'
import { BIN, cleanEnv, runCli, startCli } from '../helpers/cli.ts'
import { freePort } from '../helpers/free-port.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant } from '../helpers/start-test-server.ts'

/** GET /__admin/events, once its `ready` event has come; `ended` says how the stream finished. */
async function openEventStream(url: string): Promise<{ ended: Promise<'end' | 'cut'> }> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => get(`${url}/__admin/events`, { headers: freshTenant() }, resolve).on('error', reject))
  expect(res.statusCode).toBe(200)
  await once(res, 'data')
  const ended = new Promise<'end' | 'cut'>((resolve) => {
    res.on('end', () => resolve('end'))
    res.on('aborted', () => resolve('cut'))
    res.on('error', () => resolve('cut'))
    res.resume()
  })
  return { ended }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'novu-mock-cli-'))
const counts = (state: TenantState) => [state.subscribers.length, state.integrations.length, state.channelConnections.length, state.messages.length]

describe('novu-mock start: options from flags, env and novu-mock.config.json', () => {
  it('serves on the port of the config file, unless NOVU_MOCK_PORT or --port says otherwise', async () => {
    const [filePort, envPort] = [await freePort(), await freePort()]
    const cwd = tempDir()
    writeFileSync(join(cwd, 'novu-mock.config.json'), JSON.stringify({ port: filePort, 'log-level': 'silent', subscribers: 7 }))
    const fromFile = await startCli([], { cwd })
    try {
      expect(fromFile.url).toBe(`http://127.0.0.1:${filePort}`)
      expect((await readState(fromFile.url, freshTenant())).subscribers).toHaveLength(7)
    } finally {
      await fromFile.stop()
    }
    const fromEnv = await startCli(['--subscribers', '9'], { cwd, env: { NOVU_MOCK_PORT: String(envPort), PORT: String(filePort), NOVU_MOCK_SUBSCRIBERS: '8' } })
    try {
      expect(fromEnv.url).toBe(`http://127.0.0.1:${envPort}`)
      expect((await readState(fromEnv.url, freshTenant())).subscribers).toHaveLength(9)
    } finally {
      await fromEnv.stop()
    }
  })

  it('stops on a config file key it does not know, naming it on one line (exit 2)', async () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'novu-mock.config.json'), JSON.stringify({ seed: 1, subscriber: 5 }))
    const { code, stdout, stderr } = await runCli([], { cwd })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe('novu-mock: novu-mock.config.json: unknown key "subscriber" (did you mean "subscribers"?). Run novu-mock --help for the options.\n')
  })

  it('stops on an unknown flag with one line naming it (exit 2)', async () => {
    const { code, stderr } = await runCli(['--seeed', '3'])
    expect(code).toBe(2)
    expect(stderr).toBe("novu-mock: Unknown option '--seeed' (did you mean --seed?). Run novu-mock --help for the options.\n")
  })

  it('names the variable that holds a bad value (exit 2)', async () => {
    const { code, stdout, stderr } = await runCli([], { env: { NOVU_MOCK_PORT: 'abc' } })
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe('novu-mock: NOVU_MOCK_PORT must be a whole number from 0 to 65535, got "abc". Run novu-mock --help for the options.\n')
  })

  it('refuses a port above 65535 in one line (exit 2), not with a stack', async () => {
    const { code, stdout, stderr } = await runCli(['--port', '99999'])
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
    expect(stderr).toBe('novu-mock: --port must be a whole number from 0 to 65535, got "99999". Run novu-mock --help for the options.\n')
  })

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 soon after %s, ending an open event stream cleanly', async (signal) => {
    const cli = await startCli(['--port', '0', '--log-level', 'silent'])
    const stream = await openEventStream(cli.url)
    const sent = performance.now()
    cli.child.kill(signal)
    const [code] = (await once(cli.child, 'exit')) as [number | null]
    const exitedAfterMs = performance.now() - sent
    expect(code).toBe(0)
    expect(await stream.ended).toBe('end') // the last chunk arrived: not a connection cut after a grace period
    // An idle server stops in milliseconds; the bound only catches a hang, never a busy machine.
    expect(exitedAfterMs).toBeLessThan(15_000)
  })

  it('prints the commands and flags for --help', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('validate-fixtures PATH')
    expect(stdout).toContain('default: *; env NOVU_MOCK_CORS_ORIGINS')
    expect(stdout).toContain('default: 4010; env NOVU_MOCK_PORT or PORT')
  })

  it('says in --help what --rate-limit lets through (its burst and RateLimit-Policy) and when --db needs a command run', async () => {
    const { stdout } = await runCli(['--help'])
    const line = (flag: string) => stdout.split('\n').find((text) => text.startsWith(`  --${flag} `))
    expect(line('rate-limit')).toMatch(/burst is the limit plus 10%, rounded up \(3\/1 lets 4 calls through at once\), as the RateLimit-Policy header says/)
    expect(line('db')).toMatch(/only after an install with --ignore-scripts run npm rebuild better-sqlite3/)
    expect(line('db')).not.toMatch(/npm install better-sqlite3/)
  })

  it('lets the burst of --rate-limit 3/1 through, as RateLimit-Policy says, and refuses the next', async () => {
    const cli = await startCli(['--port', '0', '--log-level', 'silent', '--rate-limit', '3/1', '--clock', '2025-01-01T00:00:00.000Z'])
    try {
      const auth = freshTenant()
      const statuses: number[] = []
      let policy = ''
      for (let i = 0; i < 5; i++) {
        const res = await request(cli.url).get('/v2/subscribers/demo-subscriber-1').set(auth)
        statuses.push(res.status)
        policy = res.headers['ratelimit-policy'] as string
      }
      // The tenant's clock is frozen: no token comes back between the calls, however slow the machine.
      expect(statuses).toEqual([200, 200, 200, 200, 429])
      expect(policy).toMatch(/^3;w=1;burst=4;/)
    } finally {
      await cli.stop()
    }
  })
})

describe('novu-mock seed --out', () => {
  it('writes the starting state, which validates and loads back with --fixtures and PUT /__admin/state', async () => {
    const dir = tempDir()
    const out = join(dir, 'state.json')
    const seeded = await runCli(['seed', '--seed', '7', '--subscribers', '6', '--connections', '5', '--messages', '30', '--out', out])
    expect(seeded.code).toBe(0)
    expect(seeded.stdout).toBe(`wrote 6 subscribers, 9 integrations, 5 channel connections, 30 messages (seed 7) to ${out}\n`)
    const state = JSON.parse(readFileSync(out, 'utf8')) as TenantState
    expect(counts(state)).toEqual([6, 9, 5, 30])

    const checked = await runCli(['validate-fixtures', out, '--fixtures-mode', 'replace'])
    expect(checked).toMatchObject({ code: 0, stderr: '' })
    expect(checked.stdout).toBe(`OK ${out} (state.json): starts with 6 subscribers, 9 integrations, 5 channel connections, 30 messages (replace)\n`)

    // Edited, then served as the starting state of every tenant.
    state.subscribers[0]!.firstName = 'Edited'
    writeFileSync(out, JSON.stringify(state))
    const served = await startCli(['--port', '0', '--log-level', 'silent', '--fixtures', out, '--fixtures-mode', 'replace'])
    try {
      const auth = freshTenant()
      expect(await readState(served.url, auth)).toEqual(state)
      const put = await request(served.url).put('/__admin/state').set(auth).set('Content-Type', 'application/json').send(readFileSync(out, 'utf8'))
      expect(put.status).toBe(200)
      expect(put.body).toEqual({ subscribers: 6, integrations: 9, channelConnections: 5, messages: 30 })
    } finally {
      await served.stop()
    }
  })

  it('is the same for the same seed and flags, and differs for another seed', async () => {
    const [a, b, c] = await Promise.all([runCli(['seed', '--seed', '4', '--subscribers', '3']), runCli(['seed', '--seed', '4', '--subscribers', '3']), runCli(['seed', '--seed', '5', '--subscribers', '3'])])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    expect(a.stdout).not.toBe(c.stdout)
    expect(counts(JSON.parse(a.stdout))).toEqual([3, 9, 120, 18])
  })

  it('ends quietly when its reader stops reading (novu-mock seed | head)', async () => {
    const child = spawn('node', [BIN, 'seed'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => void (stderr += String(chunk)))
    const [first] = (await once(child.stdout, 'data')) as [Buffer]
    expect(String(first)).toMatch(/^\{/)
    child.stdout.destroy() // as head does after its lines: the pipe's reading end closes
    const [code] = (await once(child, 'exit')) as [number | null]
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  })

  it('says so on one line when the file cannot be written', async () => {
    const { code, stderr } = await runCli(['seed', '--out', join(tempDir(), 'no-such-dir', 'state.json')])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^novu-mock: cannot write .*state\.json \(ENOENT\)\n$/)
  })
})

describe('novu-mock validate-fixtures', () => {
  const folder = (files: Record<string, string>) => {
    const dir = tempDir()
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    return dir
  }
  const subscriber = { _id: '65f000000000000000000001', subscriberId: 'user-1', firstName: 'Linus', deleted: false, createdAt: '2024-05-01T00:00:00.000Z', updatedAt: '2024-05-01T00:00:00.000Z' }

  it('exits 0 with an OK line for a good folder', async () => {
    const dir = folder({ 'subscribers.json': JSON.stringify([subscriber]) })
    const { code, stdout, stderr } = await runCli(['validate-fixtures', dir])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toBe(`OK ${dir} (subscribers.json): starts with 51 subscribers, 9 integrations, 120 channel connections, 253 messages (merge)\n`)
  })

  it.each([
    ['a record breaking the document', { 'subscribers.json': JSON.stringify([{ ...subscriber, deleted: 'no' }]) }, /subscribers\.json: record 0 \(65f000000000000000000001\), field \/deleted: must be boolean/],
    ['malformed JSON', { 'messages.json': '[{' }, /messages\.json: .*JSON/],
    ['a state file with a key of no kind', { 'state.json': '{"subscribers": [], "extra": []}' }, /state\.json: must NOT have additional properties \(extra\)/],
    ['a state file with a bad record', { 'state.json': JSON.stringify({ subscribers: [{ ...subscriber, deleted: 'no' }] }) }, /state\.json: subscribers: record 0 \(65f000000000000000000001\), field \/deleted: must be boolean/],
  ])('exits 1 with the one-line problem for %s', async (_case, files, message) => {
    const dir = folder(files)
    const { code, stdout, stderr } = await runCli(['validate-fixtures', 'state.json' in files ? join(dir, 'state.json') : dir])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(message)
  })

  it('is a usage error (exit 2) for a folder of no recognised file, naming every name it looks for', async () => {
    const dir = folder({ 'subscriber.json': JSON.stringify([subscriber]) })
    for (const args of [['validate-fixtures', dir], ['--port', '0', '--fixtures', dir]]) {
      const { code, stdout, stderr } = await runCli(args)
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' })
      expect(stderr).toBe(
        `novu-mock: ${dir}: no fixtures file in this folder (it holds subscriber.json); a fixtures folder holds one or more of subscribers.json, integrations.json, channelConnections.json, messages.json, workflows.json, or give one state file as seed --out writes\n`,
      )
    }
  })

  it('warns of a .json file beside recognised ones, naming it, and reads workflows.json', async () => {
    const dir = folder({ 'subscribers.json': JSON.stringify([subscriber]), 'subscriber.json': '[]', 'workflows.json': '[{"workflowId": "welcome", "name": "Welcome", "active": true}]' })
    const { code, stdout, stderr } = await runCli(['validate-fixtures', dir])
    expect(code).toBe(0)
    expect(stdout).toBe(`OK ${dir} (subscribers.json, workflows.json): starts with 51 subscribers, 9 integrations, 120 channel connections, 253 messages (merge)\n`)
    expect(stderr.split('\n')).toEqual([
      `novu-mock: warning: ${join(dir, 'subscriber.json')}: not read: a fixtures folder holds subscribers.json, integrations.json, channelConnections.json, messages.json (or workflows.json)`,
      '',
    ])
  })

  it('refuses a workflow without its workflowId, naming the file', async () => {
    const dir = folder({ 'workflows.json': '[{"name": "welcome"}]' })
    const { code, stderr } = await runCli(['validate-fixtures', dir])
    expect(code).not.toBe(0)
    expect(stderr).toContain(join(dir, 'workflows.json'))
    expect(stderr).toContain('workflowId')
  })

  it('reports every problem of every record and file at once, one line each', async () => {
    const { deleted: _deleted, ...noDeleted } = subscriber
    const records = [{ ...noDeleted, updatedAt: 'yesterday' }, { ...subscriber, _id: '65f000000000000000000002', subscriberId: 'user-2', firstName: 7 }]
    const dir = folder({ 'subscribers.json': JSON.stringify(records), 'messages.json': '[{' })
    const { code, stderr } = await runCli(['validate-fixtures', dir])
    expect(code).toBe(1)
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(4)
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^novu-mock: .*messages\.json: .*JSON/),
        expect.stringMatching(/subscribers\.json: record 0 \(65f000000000000000000001\), field \/: must have required property 'deleted'$/),
        expect.stringMatching(/subscribers\.json: record 0 \(65f000000000000000000001\), field \/updatedAt: must match format "date-time"$/),
        expect.stringMatching(/subscribers\.json: record 1 \(65f000000000000000000002\), field \/firstName: must be string,null$/),
      ]),
    )
  })

  it('exits 1 for a folder that does not exist', async () => {
    const { code, stderr } = await runCli(['validate-fixtures', '/nonexistent/fixtures'])
    expect(code).toBe(1)
    expect(stderr).toBe('novu-mock: /nonexistent/fixtures: no such fixtures folder or file\n')
  })
})
