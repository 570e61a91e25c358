import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonNestsDeeperThan } from '../../src/lib/json/json-depth.ts'
import { jsonInSteps } from '../../src/lib/json/json-in-steps.ts'
import { toEnd } from '../../src/lib/slices.ts'

const bytesOf = (text: string) => new TextEncoder().encode(text)
/** Cut at every chance: each element its own batch, a step every few bytes. */
const TINY = { scanBytes: 3, batchBytes: 1 }
const read = (text: string, limit = 64) => toEnd(jsonInSteps(bytesOf(text), limit, TINY))

/** What JSON.parse makes of the text, as the whole-body reader sees it. */
function parsedWhole(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

describe('a JSON body read in steps', () => {
  it('gives the value JSON.parse gives, for any object of arrays and other members', () => {
    const record = fc.jsonValue({ maxDepth: 3 })
    const body = fc.dictionary(fc.string(), fc.oneof(fc.array(record), record))
    fc.assert(
      fc.property(body, fc.boolean(), (value, spaced) => {
        const text = spaced ? JSON.stringify(value, null, 1) : JSON.stringify(value)
        const outcome = read(text)
        expect(outcome).toEqual({ kind: 'value', value: JSON.parse(text) })
      }),
      { numRuns: 300 },
    )
  })

  it('never gives a value for text JSON.parse refuses, nor a different one for text it reads', () => {
    const text = fc.dictionary(fc.string({ maxLength: 3 }), fc.array(fc.jsonValue({ maxDepth: 2 }))).map((value) => JSON.stringify(value))
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.constantFrom(',', ']', '[', '}', '{', '"', ' ', '\\', ':', '1', ''))
    fc.assert(
      fc.property(text, edit, (original, [at, removed, inserted]) => {
        const position = at % (original.length + 1)
        const broken = original.slice(0, position) + inserted + original.slice(position + removed)
        const whole = parsedWhole(broken)
        const outcome = read(broken)
        if (!whole.ok) expect(outcome.kind).not.toBe('value')
        else if (outcome.kind === 'value') expect(outcome.value).toEqual(whole.value)
        else if (broken.trimStart().startsWith('{')) expect.unreachable(`read whole, refused in steps: ${broken}`)
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['a duplicate array member: the last wins', '{"a":[1,2],"b":0,"a":[3]}'],
    ['a member named __proto__ stays a member', '{"__proto__":[1,{"x":2}],"b":{"__proto__":[3]}}'],
    ['empty arrays, and whitespace around everything', ' \n{ "a" : [ ] , "b":[ 1 ,\t2 ] }\r\n'],
    ['brackets and escaped quotes inside strings', '{"a":["],[{\\"", "x\\\\"],"b":"[,]"}'],
    ['arrays nested in records', '{"a":[[1,[2]],{"b":[3,4]}],"c":[[]]}'],
    ['text beyond ASCII', '{"a":["héllo","😀",{"ü":"€"}]}'],
  ])('reads %s as JSON.parse does', (_case, text) => {
    expect(read(text)).toEqual({ kind: 'value', value: JSON.parse(text) })
    expect(Object.getPrototypeOf((read(text) as { value: object }).value)).toBe(Object.prototype)
  })

  it.each([
    ['a trailing comma', '{"a":[1,2,]}'],
    ['two commas', '{"a":[1,,2]}'],
    ['a leading comma', '{"a":[,1]}'],
    ['an array closed by a brace', '{"a":[1,2}}'],
    ['an unclosed array', '{"a":[1,2'],
    ['text after the object', '{"a":[1]}x'],
    ['a second object', '{"a":[1]}{"b":[2]}'],
    ['a missing colon', '{"a" [1]}'],
  ])('leaves %s to JSON.parse', (_case, text) => {
    expect(parsedWhole(text).ok).toBe(false)
    expect(read(text)).toEqual({ kind: 'unsplit' })
  })

  it.each([
    ['an array at the top', '[{"a":[1]}]'],
    ['a byte-order mark', '\ufeff{"a":[1]}'],
    ['a string', '"{}"'],
  ])('leaves %s to JSON.parse, which reads it whole', (_case, text) => {
    expect(read(text)).toEqual({ kind: 'unsplit' })
  })

  it('measures nesting as the one-pass check does, and stops at the first level too deep', () => {
    const nested = fc.letrec((tie) => ({ value: fc.oneof({ depthSize: 'small' }, fc.constant(1), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 2 }), tie('value'), { maxKeys: 3 })) })).value
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 2 }), nested), fc.integer({ min: 1, max: 6 }), (value, limit) => {
        const bytes = bytesOf(JSON.stringify(value))
        const deep = jsonNestsDeeperThan(bytes, limit)
        expect(toEnd(jsonInSteps(bytes, limit, TINY)).kind === 'too-deep').toBe(deep)
      }),
      { numRuns: 500 },
    )
  })
})
