import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/create-app.ts'
import type { TenantState } from '../../src/store/records.ts'
import { BIN, cleanEnv, runCli, startCli } from '../helpers/cli.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { appendToken, dbFile, fcmTokens } from './helpers.ts'
import { spawn } from 'node:child_process'
import { once } from 'node:events'

const SQLITE_HEADER = 'SQLite format 3\0'
/** util-linux's setpriv (essential in Debian): runs a command as root without the capabilities that override file permissions. */
const SETPRIV = '/usr/bin/setpriv'
const WITHOUT_OVERRIDES = '-dac_override,-dac_read_search'
const seedState = async (options: { seed?: number; volumes?: { subscribers: number; channelConnections: number } } = {}) =>
  (await createApp({ logLevel: 'silent', ...options })).locals.seed

describe('the --db file', () => {
  it('converts a JSON store file of earlier versions on first start, keeping it as a backup', async () => {
    const seed = await seedState()
    const written: TenantState = structuredClone(seed)
    written.subscribers[0]!.firstName = 'Converted'
    written.messages.splice(5, 1)
    const snapshot: TenantState = structuredClone(seed)
    snapshot.integrations[1]!.name = 'In the snapshot'
    const ownSeed = await seedState({ seed: 5, volumes: { subscribers: 4, channelConnections: 3 } })
    const file = dbFile('state.json')
    const json = JSON.stringify({
      version: 1,
      tenants: { written, made: ownSeed },
      seeds: { made: ownSeed },
      snapshots: { written: { before: { createdAt: '2026-01-02T03:04:05.000Z', state: snapshot } } },
    })
    writeFileSync(file, json)

    const server = await startTestServer({ db: file })
    const auth = { Authorization: 'ApiKey written' }
    expect(await readState(server.url, auth)).toEqual(written)
    expect(await readState(server.url, { Authorization: 'ApiKey made' })).toEqual(ownSeed)
    expect((await request(server.url).post('/__admin/snapshots/before/restore').set(auth)).status).toBe(200)
    expect(await readState(server.url, auth)).toEqual(snapshot)
    await server.close()
    expect(readFileSync(file).subarray(0, 16).toString('latin1')).toBe(SQLITE_HEADER)
    expect(readFileSync(`${file}.json-backup`, 'utf8')).toBe(json)

    const again = await startTestServer({ db: file })
    expect(await readState(again.url, auth)).toEqual(snapshot)
    await again.close()
  })

  it('converts a JSON store whose snapshot holds thousands of rows: the snapshot and the tenant each keep their own', { timeout: 60_000 }, async () => {
    const seed = await seedState()
    const snapshot: TenantState = structuredClone(seed)
    const model = seed.channelConnections[0]!
    for (let i = 0; i < 2_500; i++) snapshot.channelConnections.push({ ...model, _id: `c0ffee${i.toString(16).padStart(18, '0')}`, identifier: `converted-${i}` })
    const written: TenantState = structuredClone(seed)
    written.subscribers[0]!.firstName = 'Converted'
    const file = dbFile('state.json')
    writeFileSync(file, JSON.stringify({ version: 1, tenants: { written }, snapshots: { written: { large: { createdAt: '2026-01-02T03:04:05.000Z', state: snapshot } } } }))

    const server = await startTestServer({ db: file })
    const auth = { Authorization: 'ApiKey written' }
    expect(await readState(server.url, auth)).toEqual(written)
    expect((await request(server.url).post('/__admin/snapshots/large/restore').set(auth)).status).toBe(200)
    expect(await readState(server.url, auth)).toEqual(snapshot)
    await server.close()
  })

  it('is locked while a process runs on it: a second one stops with one line saying so', { timeout: 30_000 }, async () => {
    const db = dbFile()
    const first = await startCli(['--port', '0', '--log-level', 'silent', '--db', db])
    const second = await runCli(['--port', '0', '--db', db])
    expect(second.code).toBe(1)
    expect(second.stderr).toBe(`novu-mock: ${db} is in use by another process (a novu-mock holds it locked while it runs); stop that one, or give --db another file\n`)
    expect((await request(first.url).get('/__admin/health')).status).toBe(200)
    await first.stop()
  })

  it('keeps the seed options it was written with: a start with others says so and uses the file’s', { timeout: 30_000 }, async () => {
    const db = dbFile()
    const first = await startCli(['--port', '0', '--log-level', 'silent', '--db', db, '--seed', '3', '--subscribers', '10'])
    const auth = freshTenant()
    expect((await appendToken(first.url, auth, 'written')).status).toBe(200)
    const written = await readState(first.url, auth)
    await first.stop()

    const second = await startCli(['--port', '0', '--log-level', 'warn', '--db', db, '--seed', '4'])
    expect(await readState(second.url, auth)).toEqual(written)
    expect((await readState(second.url, freshTenant())).subscribers).toHaveLength(10)
    await second.stop()
    const warnings = second.stderr().trim().split('\n')
    expect(warnings).toHaveLength(1)
    expect(JSON.parse(warnings[0]!).msg).toBe(
      `${db} was written with the seed options --seed 3 --subscribers 10 --connections 120; using them, not the --seed 4 --subscribers 50 --connections 120 given`,
    )
  })

  it('stops the start with one line when the file may not be written', { timeout: 30_000 }, async () => {
    const db = dbFile()
    const first = await startTestServer({ db })
    expect((await appendToken(first.url, freshTenant(), 'written')).status).toBe(200)
    await first.close()
    chmodSync(db, 0o444)
    chmodSync(dirname(db), 0o555)
    // Root may write any file: as root the start runs without the capabilities that let it. Still
    // root, it reads the checkout wherever it is (a folder under a 0700 parent, as /root is).
    const asRoot = process.getuid?.() === 0
    const command = asRoot ? [SETPRIV, '--inh-caps', WITHOUT_OVERRIDES, '--bounding-set', WITHOUT_OVERRIDES, '--', 'node'] : ['node']
    const child = spawn(command[0]!, [...command.slice(1), BIN, '--port', '0', '--db', db], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => void (stderr += String(chunk)))
    const [code] = (await once(child, 'exit')) as [number]
    chmodSync(dirname(db), 0o755)
    expect(code).toBe(1)
    expect(stderr).toMatch(new RegExp(`^novu-mock: ${db}: cannot write \\(.+\\); --db needs a file it may write, in a folder it may write \\(for ${db}-wal\\)\\n$`))
  })

  it('refuses a file that is not a novu-mock store, and leaves it as it was', async () => {
    const db = dbFile('notes.txt')
    writeFileSync(db, 'some notes\n')
    const run = await runCli(['--port', '0', '--db', db])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`novu-mock: ${db}: not a novu-mock store (neither an SQLite database nor a JSON store file); give --db a new file\n`)
    expect(readFileSync(db, 'utf8')).toBe('some notes\n')
  })

  it('creates a new file on first start, and keeps a tenant’s write', async () => {
    const db = dbFile()
    expect(existsSync(db)).toBe(false)
    const server = await startTestServer({ db })
    const auth = freshTenant()
    expect((await appendToken(server.url, auth, 'first')).status).toBe(200)
    await server.close()
    expect(readFileSync(db).subarray(0, 16).toString('latin1')).toBe(SQLITE_HEADER)
    const again = await startTestServer({ db })
    expect(await fcmTokens(again.url, auth)).toEqual(['fcm-token-ada-1', 'first'])
    await again.close()
  })
})
