import { describe, expect, it } from 'vitest'
import { ApiError } from '../answer/api-error.ts'
import { apiKeyFrom } from './authenticate.ts'

const codeOf = (header: string | undefined) => {
  try {
    apiKeyFrom(header, undefined)
  } catch (error) {
    return error instanceof ApiError ? error.code : String(error)
  }
  return 'accepted'
}

describe('apiKeyFrom', () => {
  it.each([
    ['ApiKey k1', 'k1'],
    ['  ApiKey k1  ', 'k1'],
    ['ApiKey\tk1', 'k1'],
    ['ApiKey   k1', 'k1'],
    ['ApiKey a b', 'a b'],
    ['ApiKey a \t b', 'a b'],
  ])('reads %j as the key %j', (header, key) => {
    expect(apiKeyFrom(header, undefined)).toBe(key)
  })

  it.each([
    [undefined, 'MISSING_AUTHORIZATION'],
    ['   ', 'MISSING_AUTHORIZATION'],
    ['ApiKey', 'UNAUTHORIZED'],
    ['ApiKey   ', 'UNAUTHORIZED'],
    ['Bearer k1', 'INVALID_SCHEME'],
    ['apikey k1', 'INVALID_SCHEME'],
  ])('refuses %j with %s', (header, code) => {
    expect(codeOf(header)).toBe(code)
  })

  it('accepts only the listed keys in strict mode', () => {
    expect(apiKeyFrom('ApiKey k1', new Set(['k1']))).toBe('k1')
    expect(() => apiKeyFrom('ApiKey k2', new Set(['k1']))).toThrow('API Key not found')
  })
})
