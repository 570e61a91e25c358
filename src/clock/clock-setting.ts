import { FIRST_PRINTABLE_MS, isoTime, isPrintable, LAST_PRINTABLE_MS } from '../lib/iso-time.ts'

/**
 * A tenant's clock as it is kept (docs/behaviour.md §8): `at` is the tenant's time when it was
 * set, `since` the real time then. Frozen, the tenant's time stays at `at`; running, it moves on at
 * real speed from there. `null` is the real clock, chosen by the test; a tenant with no setting
 * kept runs on the server's starting clock (`--clock`, or real).
 */
export interface ClockSetting {
  at: number
  frozen: boolean
  since: number
}

export type KeptClock = ClockSetting | null

/** What `/__admin/clock` answers. */
export interface ClockView {
  now: string
  frozen: boolean
}

/** How near the end of the range a running clock may be set: a year of 9999, which has 365 days. */
const YEAR_MS = 365 * 24 * 60 * 60 * 1000

/** The range's ends, as messages name them. */
export const FIRST_INSTANT = isoTime(FIRST_PRINTABLE_MS)
export const LAST_INSTANT = isoTime(LAST_PRINTABLE_MS)

/**
 * How a clock set to `next` would leave the range of the documents' `date-time` (docs/behaviour.md
 * §8): out of it (`range`), or running less than a year from its end (`running`, so that it never
 * runs out of the range while the server runs); undefined when it stays in.
 */
export function outOfRange(next: ClockSetting): 'range' | 'running' | undefined {
  if (!isPrintable(next.at)) return 'range'
  if (!next.frozen && next.at > LAST_PRINTABLE_MS - YEAR_MS) return 'running'
  return undefined
}

/** The tenant's time, in ms since the epoch, at real time `realMs`. */
export function timeOf(clock: KeptClock, realMs: number): number {
  if (clock === null) return realMs
  return clock.frozen ? clock.at : clock.at + (realMs - clock.since)
}

export const viewOf = (clock: KeptClock, realMs: number): ClockView => ({
  now: isoTime(timeOf(clock, realMs)),
  frozen: clock?.frozen ?? false,
})

/** The clock `ms` later than `clock` at real time `realMs`, frozen or running as it was. */
export function advanced(clock: KeptClock, ms: number, realMs: number): ClockSetting {
  return { at: timeOf(clock, realMs) + ms, frozen: clock?.frozen ?? false, since: realMs }
}

/** A clock kept as text (in a file, in Redis), read back; anything else reads as the starting clock. */
export function clockFromText(text: string | null | undefined): KeptClock | undefined {
  if (text === null || text === undefined) return undefined
  const parsed = JSON.parse(text) as unknown
  if (parsed === null) return null
  const { at, frozen, since } = parsed as Partial<ClockSetting>
  return typeof at === 'number' && typeof frozen === 'boolean' && typeof since === 'number' ? { at, frozen, since } : undefined
}
