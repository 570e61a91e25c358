import type { ValidateFunction } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { checkedAnswer, type ResponseCheck } from './response-check.ts'

const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as ResponseCheck['logger']
const CHECK: ResponseCheck = { mode: 'strict', logger: silent, now: () => new Date(0) }

/** A validator that passes bodies with `ok: true`, counting its calls. */
function counting(): ValidateFunction & { calls: number } {
  const validate = ((body: { ok?: boolean }) => {
    validate.calls++
    validate.errors = body.ok ? null : [{ instancePath: '/ok', schemaPath: '#/required', keyword: 'required', params: {}, message: 'must be true' }]
    return body.ok === true
  }) as ValidateFunction & { calls: number }
  validate.calls = 0
  return validate
}

describe('checkedAnswer', () => {
  it('checks an answer made with its JSON once per check, and every other answer each time', () => {
    const validate = counting()
    const kept = { status: 200, body: { ok: true }, text: '{"ok":true}' }
    expect(checkedAnswer(kept, validate, '/p', CHECK)).toBe(kept)
    expect(checkedAnswer({ ...kept }, validate, '/p', CHECK).status).toBe(200)
    expect(validate.calls).toBe(1)
    // Another check of the same object runs; so does every answer made without its JSON.
    const other = counting()
    checkedAnswer(kept, other, '/p', CHECK)
    const made = { status: 200, body: { ok: true } }
    checkedAnswer(made, validate, '/p', CHECK)
    checkedAnswer(made, validate, '/p', CHECK)
    expect([other.calls, validate.calls]).toEqual([1, 3])
  })

  it('never remembers a failure: a broken answer is refused each time it is made', () => {
    const validate = counting()
    const broken = { status: 200, body: { ok: false }, text: '{"ok":false}' }
    expect(checkedAnswer(broken, validate, '/p', CHECK).status).toBe(500)
    expect(checkedAnswer(broken, validate, '/p', CHECK).status).toBe(500)
    expect(validate.calls).toBe(2)
  })
})
