import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/log/logger.ts'
import { prettyDestination } from '../../src/log/pretty-log.ts'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { BIN, cleanEnv, hasScript, startCli } from '../helpers/cli.ts'
import { startTestServer } from '../helpers/start-test-server.ts'
import { ADA, adaMessage } from '../helpers/well-known.ts'

const capture = () => {
  const lines: string[] = []
  return { lines, destination: { write: (line: string) => void lines.push(line) }, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) }
}
const hashOf = (authorization: string) => createHash('sha256').update(authorization).digest('hex').slice(0, 8)

const log = capture()
let server: MockServer
beforeAll(async () => {
  server = await startTestServer({ logger: createLogger('info', log.destination) })
})
afterAll(() => server.close())

/** The request line the server wrote for the call `send` made. */
async function lineFor(send: () => PromiseLike<unknown>): Promise<Record<string, unknown>> {
  const before = log.lines.length
  await send()
  await expect.poll(() => log.lines.length).toBeGreaterThan(before)
  const written = log.parsed().slice(before)
  expect(written).toHaveLength(1)
  return written[0]!
}

describe('the request log (pino, JSON lines)', () => {
  it('writes one line per request: method, path, operationId, status, ms, tenant hash', async () => {
    const key = `key-${crypto.randomUUID()}`
    const line = await lineFor(() => request(server.url).get(`/v2/subscribers/${ADA}?unused=1`).set('Authorization', `ApiKey ${key}`))
    expect(line).toMatchObject({ level: 30, name: 'novu-mock', msg: 'request', method: 'GET', path: `/v2/subscribers/${ADA}`, operationId: 'getSubscriber', status: 200, tenant: hashOf(`ApiKey ${key}`) })
    expect(Date.parse(line.time as string)).not.toBeNaN()
    expect(line.ms).toBeTypeOf('number')
    expect(log.lines.at(-1)).not.toContain(key)
    expect(log.lines.at(-1)!.endsWith('}\n')).toBe(true)
  })

  it('says on the line of a call whose body was read as a form that no JSON content type was sent', async () => {
    const line = await lineFor(() =>
      request(server.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set('Authorization', `ApiKey key-${crypto.randomUUID()}`).type('form').send('{"messageId":"x","markAs":"read"}'),
    )
    expect(line).toMatchObject({ status: 422, note: expect.stringMatching(/read as a form .*because no JSON content type was sent/) })
  })

  it('logs routes outside the operations too, without an operationId or tenant', async () => {
    const line = await lineFor(() => request(server.url).get('/v9/nothing'))
    expect(line).toMatchObject({ method: 'GET', path: '/v9/nothing', status: 404 })
    expect(line).not.toHaveProperty('operationId')
    expect(line).not.toHaveProperty('tenant')
  })

  it('never writes a secret, whatever field carries it', () => {
    const { lines, destination } = capture()
    createLogger('debug', destination).warn('odd', { authorization: 'ApiKey s3cret', headers: { 'Idempotency-Key': 'idem-s3cret', 'x-admin-token': 'adm-s3cret' }, list: [{ apiKey: 'k-s3cret' }] })
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/s3cret/)
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: 'odd', authorization: '[redacted]', headers: { 'Idempotency-Key': '[redacted]', 'x-admin-token': '[redacted]' } })
  })

  it('writes nothing below its level, and says so cheaply through enabled()', async () => {
    const { lines, destination } = capture()
    const quiet = await startTestServer({ logger: createLogger('warn', destination) })
    try {
      await request(quiet.url).get(`/v2/subscribers/${ADA}`).set('Authorization', 'ApiKey k')
      expect(lines).toEqual([])
    } finally {
      await quiet.close()
    }
    const logger = createLogger('warn', destination)
    expect([logger.enabled('debug'), logger.enabled('info'), logger.enabled('warn'), logger.enabled('error')]).toEqual([false, false, true, true])
    const silent = createLogger('silent', destination)
    silent.error('never')
    expect(silent.enabled('error')).toBe(false)
    expect(lines).toEqual([])
  })

  it('is JSON on the CLI’s stderr when stderr is not a terminal', async () => {
    const cli = await startCli(['--port', '0', '--log-level', 'info'])
    try {
      await request(cli.url).post(`/v1/subscribers/${ADA}/messages/mark-as`).set({ Authorization: 'ApiKey cli-s3cret', 'idempotency-key': 'idem-s3cret' }).send({ messageId: adaMessage(1), markAs: 'read' })
      await expect.poll(() => cli.stderr()).toContain('"operationId":"markMessagesAs"')
      const line = JSON.parse(cli.stderr().trim().split('\n').at(-1)!)
      expect(line).toMatchObject({ level: 30, msg: 'request', method: 'POST', path: `/v1/subscribers/${ADA}/messages/mark-as`, status: 201, tenant: hashOf('ApiKey cli-s3cret') })
      expect(cli.stderr()).not.toMatch(/s3cret/)
    } finally {
      await cli.stop()
    }
  })
})

describe('the request log on a terminal (pino-pretty)', () => {
  it('is one readable line per request, secrets still redacted', async () => {
    const terminal = new PassThrough()
    let shown = ''
    terminal.on('data', (chunk: Buffer) => void (shown += String(chunk)))
    const logger = createLogger('info', prettyDestination(terminal))
    logger.info('request', { method: 'GET', path: '/v2/subscribers/x', operationId: 'getSubscriber', status: 200, ms: 1.5, tenant: 'abcd1234' })
    logger.warn('odd', { authorization: 'ApiKey s3cret' })
    await expect.poll(() => shown.split('\n').length).toBe(3)
    const [requestLine, odd] = shown.split('\n')
    expect(requestLine).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: request .*"operationId":"getSubscriber"/)
    expect(odd).toMatch(/WARN.*: odd .*"authorization":"\[redacted\]"/)
    expect(shown).not.toMatch(/s3cret/)
  })

  it.skipIf(!hasScript)('is what the CLI, as built, writes on a real terminal (through script(1))', async () => {
    const typed = spawn('script', ['-qec', `node ${JSON.stringify(BIN)} --port 0 --host 127.0.0.1`, '/dev/null'], { env: cleanEnv() })
    let shown = ''
    typed.stdout.on('data', (chunk: Buffer) => void (shown += stripVTControlCharacters(String(chunk))))
    try {
      await expect.poll(() => shown, { timeout: 20_000 }).toMatch(/listening on http:\/\/\S+\s/)
      const url = /listening on (http:\/\/\S+)/.exec(shown)![1]
      const res = await fetch(`${url}/v2/subscribers/${ADA}`, { headers: { Authorization: 'ApiKey k' } })
      expect(res.status).toBe(200)
      await expect.poll(() => shown).toMatch(/INFO.*: request .*"operationId":"getSubscriber"/)
    } finally {
      // The server, in script's terminal, ends with it (SIGHUP).
      const ended = new Promise((resolve) => typed.once('exit', resolve))
      typed.kill('SIGTERM')
      await ended
    }
  }, 30_000)
})
