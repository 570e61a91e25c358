import { describe, expect, it } from 'vitest'
import { jsonLength } from './json-length.ts'

const cases: Record<string, unknown> = {
  'a plain record': { _id: '64f0', subscriberId: 'demo-1', firstName: 'Ada', channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['a', 'b'] } }], data: null, online: true, count: 3 },
  'escapes, controls and quotes': { text: 'a "quote", a \\ backslash, \n\t\r\b\f and \u0001\u001f' },
  'non-ASCII and pairs': { name: 'Łukasz 日本 😀', emoji: '😀😀' },
  'lone surrogates': { a: '\ud800', b: 'x\udc00y', c: '\udbff\udbff\udc00' },
  'numbers': [0, -0, 1.5, -1e21, 1e-7, 123456789012345680000, NaN, Infinity, -Infinity],
  'undefined, functions and symbols': { kept: 1, gone: undefined, fn: () => 1, sym: Symbol('s'), list: [undefined, () => 1, Symbol('s'), 2] },
  'empty ones': { o: {}, a: [], s: '', nested: [[], [{}]] },
  'a date (toJSON)': { at: new Date(0), nested: { at: new Date(86_400_000) } },
  'keys that need escaping': { 'a"b': 1, 'line\nbreak': 2, '': 3 },
  'an object without a prototype': Object.assign(Object.create(null) as object, { a: 1, b: 'two' }),
  'inherited properties left out': Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 }),
}

describe('jsonLength', () => {
  for (const [name, value] of Object.entries(cases)) {
    it(`is JSON.stringify's length for ${name}`, () => {
      expect(jsonLength(value)).toBe(JSON.stringify(value).length)
    })
  }

  it('is undefined where JSON.stringify answers undefined', () => {
    expect(jsonLength(undefined)).toBeUndefined()
    expect(jsonLength(() => 1)).toBeUndefined()
  })

  it('agrees with JSON.stringify on every string of every code unit', () => {
    for (let code = 0; code < 0x10000; code += 1) {
      const text = `x${String.fromCharCode(code)}y${String.fromCharCode(code)}`
      if (jsonLength(text) !== JSON.stringify(text).length) throw new Error(`code ${code.toString(16)}`)
    }
  })
})
