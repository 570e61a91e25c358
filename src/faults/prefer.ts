import { validationFailed } from '../http/api-error.ts'

export interface Preference {
  code?: number
  example?: string
  delayMs?: number
}

export const MAX_DELAY_MS = 60_000

/** `Prefer: code=404, delay=300` (Prism's spelling); anything unreadable is a 422 naming it. */
export function parsePrefer(header: string | undefined): Preference {
  const preference: Preference = {}
  if (header === undefined || header.trim() === '') return preference
  const problems: string[] = []
  for (const part of header.split(/[,;]/)) {
    const [rawName = '', ...rest] = part.split('=')
    const name = rawName.trim().toLowerCase()
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1')
    if (name === 'code' && /^\d{3}$/.test(value)) preference.code = Number(value)
    else if (name === 'example' && value !== '') preference.example = value
    else if (name === 'delay' && /^\d+$/.test(value) && Number(value) <= MAX_DELAY_MS) preference.delayMs = Number(value)
    else if (name !== '') problems.push(`cannot honour "${part.trim()}": use code=<status>, example=<name> or delay=<ms up to ${MAX_DELAY_MS}>`)
  }
  if (problems.length > 0) throw validationFailed({ prefer: { messages: problems, value: header } })
  return preference
}
