import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadContracts, type Contract } from '../../src/contract/load-contract.ts'
import { checkedAnswer, checkedAnswerInSlices, type ResponseCheck } from '../../src/core/answers/response-check.ts'
import { jsonOutSteps } from '../../src/lib/json/json-out-steps.ts'
import { valuesInSlices } from '../../src/lib/slices.ts'
import { createLogger } from '../../src/log/logger.ts'
import { seededState } from '../../src/seed/seeding.ts'

describe('JSON written in steps', () => {
  it('gives the bytes JSON.stringify gives, for any object of arrays and other members', () => {
    // Values JSON.stringify leaves out or writes as null, beside JSON's own.
    const odd = fc.constantFrom(undefined, () => 1, Symbol('s'), new Date(0), NaN)
    const element = fc.oneof(fc.jsonValue({ maxDepth: 3 }), odd)
    const body = fc.dictionary(fc.string(), fc.oneof(fc.array(element), element))
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 64 }), (value, chunkChars) => {
        expect([...jsonOutSteps(value, chunkChars)].join('')).toBe(JSON.stringify(value))
      }),
      { numRuns: 300 },
    )
  })

  it('cuts only between elements, into chunks of about the size asked for', () => {
    const value = { records: Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `record ${i}` })), total: 1000 }
    const chunks = [...jsonOutSteps(value, 1024)]
    expect(chunks.length).toBeGreaterThan(20)
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(1024 + 100)
  })

  it('gives anything but a plain object in one chunk, as JSON.stringify does', () => {
    for (const value of [[1, 2], 'text', null, { toJSON: () => ({ a: [1] }) }, new Map()]) {
      expect([...jsonOutSteps(value, 1)]).toEqual([JSON.stringify(value)])
    }
  })

  it('lets the event loop turn between slices of chunks', async () => {
    const events: string[] = []
    setImmediate(() => events.push('another call'))
    // Each chunk takes a while to make: the slice of 8 ms is spent within a few.
    const slow = function* () {
      for (let i = 0; i < 10; i++) {
        const until = performance.now() + 3
        while (performance.now() < until);
        yield `chunk ${i}`
      }
    }
    for await (const chunk of valuesInSlices(slow())) events.push(chunk)
    expect(events.indexOf('another call')).toBeGreaterThan(0)
    expect(events.indexOf('another call')).toBeLessThan(events.length - 1)
  })
})

describe('a large answer checked in slices', () => {
  let admin: Contract
  beforeAll(async () => {
    ;({ admin } = await loadContracts())
  })
  const check: ResponseCheck = { mode: 'strict', logger: createLogger('silent'), now: () => new Date(0) }

  it('finds what the whole check finds, in the same order', async () => {
    const getState = admin.operations.get('getState')!
    const state = seededState({ seed: 1, subscribers: 20, channelConnections: 20 }, admin)
    const broken = { ...state, subscribers: state.subscribers.map((s, i) => (i % 7 === 3 ? { ...s, subscriberId: 5 } : s)), extra: true }
    for (const body of [state, broken]) {
      const answer = { status: 200, body }
      const whole = checkedAnswer(answer, getState.responseValidators.get(200), '/__admin/state', check)
      const sliced = await checkedAnswerInSlices(answer, getState.responseValidators.get(200), getState.splitResponse, '/__admin/state', check)
      expect(whole.status).toBe(body === state ? 200 : 500)
      expect(sliced.status).toBe(whole.status)
      const paths = (checked: typeof whole) => checked.violations?.map((v) => `${v.instancePath} ${v.message}`)
      expect(paths(sliced)).toEqual(paths(whole))
    }
  })
})
