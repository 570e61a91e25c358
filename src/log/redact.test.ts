import { describe, expect, it } from 'vitest'
import { redact } from './redact.ts'

describe('redact', () => {
  it('replaces secret-looking values at any depth, whatever the case of their names', () => {
    const fields = { msg: 'x', headers: { Authorization: 'ApiKey k', 'Idempotency-Key': 'i' }, list: [{ apiKey: 'a' }, 1] }
    expect(redact(fields)).toEqual({ msg: 'x', headers: { Authorization: '[redacted]', 'Idempotency-Key': '[redacted]' }, list: [{ apiKey: '[redacted]' }, 1] })
    expect(fields.headers.Authorization).toBe('ApiKey k')
  })

  it('passes fields without a secret through as they are', () => {
    const line = { method: 'GET', path: '/v2/subscribers/s', status: 200, nested: { a: [1, 2] } }
    expect(redact(line)).toBe(line)
  })
})
