import type { Operation } from '../../contract/operation.ts'
import { generalProblem } from '../../answer/api-error.ts'

/** The preferences the mock honours (RFC 7240 preferences; Prism's spelling). */
export interface Preference {
  code?: number
  example?: string
  delayMs?: number
  /** What was honoured, for the `Preference-Applied` header; absent when nothing was. */
  applied?: string
}

export const MAX_DELAY_MS = 60_000

/** No preference: shared, as most calls send none. */
const NONE: Readonly<Preference> = Object.freeze({})

/**
 * `Prefer: code=404, delay=300`. Preferences the mock does not know are ignored, as RFC 7240
 * asks; a known one with a value it cannot honour is a 422 naming it, so that a typo in a test
 * never passes silently (docs/behaviour.md §1.6).
 */
export function parsePrefer(header: string | undefined, operation: Operation): Readonly<Preference> {
  if (header === undefined || header.trim() === '') return NONE
  const preference: Preference = {}
  const problems: string[] = []
  const applied: string[] = []
  for (const part of header.split(/[,;]/)) {
    const [rawName = '', ...rest] = part.split('=')
    const name = rawName.trim().toLowerCase()
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1')
    if (name !== 'code' && name !== 'example' && name !== 'delay') continue
    const problem = take(preference, name, value, operation)
    if (problem === undefined) applied.push(`${name}=${value}`)
    else problems.push(`Prefer ${name}=${value} cannot be honoured: ${problem}`)
  }
  const status = preference.code ?? operation.successStatus
  // The success asked for by its code alone, where the document has no example (Novu's): the operation's own answer, generated.
  if (preference.code === operation.successStatus && preference.example === undefined && operation.example(status) === undefined) delete preference.code
  else if (problems.length === 0 && (preference.example !== undefined || (preference.code !== undefined && status < 300)) && operation.example(status, preference.example) === undefined) {
    problems.push(noExample(operation, status, preference.example, applied))
  }
  if (problems.length > 0) throw generalProblem(problems)
  if (applied.length > 0) preference.applied = applied.join(', ')
  return preference
}

/**
 * Why an example cannot be answered, naming those the document has, so that a typo shows its fix.
 * It quotes the preferences as sent (`sent`): a status the caller never wrote would mislead.
 */
function noExample(operation: Operation, status: number, name: string | undefined, sent: readonly string[]): string {
  const names = operation.exampleNames(status)
  const which = name === undefined ? 'example' : `example named "${name}"`
  const has = names.length === 0 ? 'it names none' : `it names ${names.join(', ')}`
  return `Prefer ${sent.join(', ')} cannot be honoured: the document has no ${which} for ${operation.operationId} ${status} (${has})`
}

/** Records one known preference; what it cannot honour, when it cannot. */
function take(preference: Preference, name: 'code' | 'example' | 'delay', value: string, operation: Operation): string | undefined {
  if (name === 'code') {
    if (!/^\d{3}$/.test(value) || !operation.responseValidators.has(Number(value))) return `${operation.operationId} documents no status ${value}`
    preference.code = Number(value)
  } else if (name === 'example') {
    if (value === '') return 'example takes the name of an example of the document'
    preference.example = value
  } else {
    if (!/^\d+$/.test(value) || Number(value) > MAX_DELAY_MS) return `delay takes a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`
    preference.delayMs = Number(value)
  }
  return undefined
}
