import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-mock-server.ts'
import { expectErrorDto } from '../helpers/expect-contract.ts'
import { startTestServer } from '../helpers/start-test-server.ts'

let server: MockServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('/favicon.ico, one of the mock’s own routes (docs/behaviour.md §1.3)', () => {
  it('is a 16×16 icon, with no key needed', async () => {
    const res = await request(server.url).get('/favicon.ico').buffer(true).parse((response, done) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => done(null, Buffer.concat(chunks)))
    })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('image/x-icon')
    const icon = res.body as Buffer
    // ICONDIR: reserved 0, type 1 (icon), one image of 16×16.
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4), icon[6], icon[7]]).toEqual([0, 1, 1, 16, 16])
    expect(icon.readUInt32LE(14) + icon.readUInt32LE(18)).toBe(icon.length)
  })

  it('answers only GET (and HEAD): another method is the usual 404', async () => {
    expect((await request(server.url).head('/favicon.ico')).status).toBe(200)
    const res = await request(server.url).post('/favicon.ico')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Cannot POST /favicon.ico')
    await expectErrorDto(res.body)
  })
})
