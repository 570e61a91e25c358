import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { createApp } from '../../src/app/create-app.ts'
import { expectContract } from '../helpers/expect-contract.ts'
import { readState } from '../helpers/read-state.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'
import { ADA, GRACE, GRACE_ID } from '../helpers/well-known.ts'

const integration = (n: number, channel: string, primary: boolean) => ({
  _id: `65f1000000000000000000${String(n).padStart(2, '0')}`,
  name: `Provider ${n}`,
  identifier: `provider-${n}`,
  providerId: 'sendgrid',
  channel,
  credentials: {},
  active: true,
  deleted: false,
  primary,
  priority: 1,
  createdAt: '2024-05-01T00:00:00.000Z',
})
const subscriber = (subscriberId: string, firstName: string) => ({
  _id: `65f0${Buffer.from(subscriberId).toString('hex').padEnd(20, '0').slice(0, 20)}`,
  subscriberId,
  firstName,
  deleted: false,
  createdAt: '2024-05-01T00:00:00.000Z',
  updatedAt: '2024-05-01T00:00:00.000Z',
})

function folderWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-fixtures-'))
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return dir
}

let server: MockServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('--fixtures', () => {
  it('merges the user records on top of the seed, the same key replacing', async () => {
    const dir = folderWith({ 'subscribers.json': [subscriber('user-1', 'Linus'), { ...subscriber(GRACE, 'Grace B.'), _id: GRACE_ID }] })
    server = await startTestServer({ fixtures: { dir, mode: 'merge' } })
    const auth = freshTenant()
    const res = await request(server.url).get('/v2/subscribers/user-1').set(auth)
    expect(res.status).toBe(200)
    await expectContract('getSubscriber', res)
    expect(res.body.firstName).toBe('Linus')
    const state = await readState(server.url, auth)
    expect(state.subscribers).toHaveLength(51)
    expect(state.subscribers.find((s) => s.subscriberId === GRACE)?.firstName).toBe('Grace B.')
  })

  it('replaces the seed with the user records', async () => {
    const dir = folderWith({ 'subscribers.json': [subscriber('only-one', 'Solo')], 'integrations.json': [integration(1, 'email', true)] })
    server = await startTestServer({ fixtures: { dir, mode: 'replace' } })
    const state = await readState(server.url, freshTenant())
    expect(state.subscribers.map((s) => s.subscriberId)).toEqual(['only-one'])
    expect(state.integrations).toHaveLength(1)
    expect(state.channelConnections).toEqual([])
    const gone = await request(server.url).get(`/v2/subscribers/${ADA}`).set(freshTenant())
    expect(gone.status).toBe(404)
  })

  it.each([
    ['a record breaking its schema', { 'integrations.json': [{ ...integration(1, 'email', false), primary: 'yes' }] }, /integrations\.json: record 0 \(65f100000000000000000001\), field \/primary: must be boolean/],
    ['malformed JSON', { 'messages.json': '[{"_id": ' }, /messages\.json: .*JSON/],
    ['a file that is no array', { 'subscribers.json': { subscriberId: 'x' } }, /subscribers\.json: expected a JSON array of records/],
    ['two primaries in one channel', { 'integrations.json': [integration(1, 'sms', true)] }, /invariant at integrations\.\d+: channel sms already has primary integration/],
  ])('refuses to start on %s, naming the file, record and field', async (_case, files, message) => {
    await expect(createApp({ logLevel: 'silent', fixtures: { dir: folderWith(files), mode: 'merge' } })).rejects.toThrow(message)
  })

  it('stops the CLI with a one-line message and a non-zero exit', async () => {
    const run = promisify(execFile)('node', ['bin/novu-mock.js', '--port', '0', '--fixtures', '/nonexistent/fixtures'])
    const failure = await run.then(() => undefined, (error: { code: number; stderr: string }) => error)
    expect(failure?.code).toBe(1)
    expect(failure?.stderr.trim()).toBe('novu-mock: /nonexistent/fixtures: no such fixtures folder or file')
  })
})
