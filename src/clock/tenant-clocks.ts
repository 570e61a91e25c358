import type { MaybePromise } from '../lib/maybe-promise.ts'
import { isPrintable } from '../lib/iso-time.ts'
import { advanced, outOfRange, timeOf, viewOf, type ClockSetting, type ClockView, type KeptClock } from './clock-setting.ts'

/**
 * Where the tenants' clocks are kept: in this process (memory, and with --db also in the file),
 * or in Redis, where every instance reads the same. `undefined`: none kept, the starting clock.
 */
export interface ClockKeeper {
  read(tenant: string): MaybePromise<KeptClock | undefined>
  write(tenant: string, clock: KeptClock | undefined): MaybePromise<void>
  /** Forgets every tenant's clock. */
  clear(): MaybePromise<void>
  /** The clocks this keeper holds in memory, read from an earlier run (a keeper reading each call's from elsewhere has none). */
  held?(): Iterable<[string, KeptClock]>
}

/** A change of a clock refused: it would have left the range (docs/behaviour.md §8); nothing changed. */
export interface ClockRefused {
  refused: 'range' | 'running'
}

export interface TenantClocksOptions {
  keeper: ClockKeeper
  /** `--clock`, in ms: every tenant starts frozen there; real time when absent. */
  start: number | undefined
  /** The real clock (tests may give their own). */
  realNow: () => number
  /**
   * Told when a tenant's time moved backwards: its rate-limit bucket is full again and its
   * idempotency records count as stored at `now` (docs/behaviour.md §8).
   */
  onRewind: (tenant: string, now: number) => MaybePromise<void>
  /** Told of a kept clock out of the range, put back on real time (a `warn` line). */
  onOutOfRange?: (tenant: string, clock: ClockSetting) => void
}

/**
 * Every tenant's clock (docs/behaviour.md §8): what each call reads once as its time, and what
 * `/__admin/clock` and the library's `tenant.clock` change.
 */
export class TenantClocks {
  private readonly start: KeptClock

  constructor(private readonly options: TenantClocksOptions) {
    this.start = options.start === undefined ? null : { at: options.start, frozen: true, since: 0 }
    const realMs = options.realNow()
    for (const [tenant, clock] of options.keeper.held?.() ?? []) this.inRange(tenant, clock, realMs)
  }

  /** The tenant's time now, in ms: read once per call, so that every stamp of the call agrees. */
  now(tenant: string): MaybePromise<number> {
    const time = this.read(tenant)
    return typeof time === 'number' ? time : time.ms
  }

  /** The tenant's time now: in ms when the keeper holds the clocks at hand, else on its way (PendingTime). */
  read(tenant: string): number | PendingTime {
    const kept = this.options.keeper.read(tenant)
    const realMs = this.options.realNow()
    if (!(kept instanceof Promise)) return timeOf(this.orStart(this.inRange(tenant, kept, realMs)), realMs)
    return { ms: kept.then((clock) => timeOf(this.orStart(this.inRange(tenant, clock, realMs)), realMs)), realMs, start: this.start }
  }

  /** The time of an answer that names no tenant (a 401, an unknown path): the starting clock's. */
  startNow(): number {
    return timeOf(this.start, this.options.realNow())
  }

  async get(tenant: string): Promise<ClockView> {
    return viewOf(await this.clockOf(tenant), this.options.realNow())
  }

  /** The tenant's time becomes `at`, frozen there or running from there, unless that leaves the range. */
  async set(tenant: string, at: number, frozen: boolean): Promise<ClockView | ClockRefused> {
    const realMs = this.options.realNow()
    return this.keepInRange(tenant, await this.clockOf(tenant), { at, frozen, since: realMs }, realMs)
  }

  /** Moves the tenant's time `ms` forward, frozen or running as it is, unless that leaves the range. */
  async advance(tenant: string, ms: number): Promise<ClockView | ClockRefused> {
    const clock = await this.clockOf(tenant)
    const realMs = this.options.realNow()
    return this.keepInRange(tenant, clock, advanced(clock, ms, realMs), realMs)
  }

  useRealTime(tenant: string): Promise<ClockView> {
    return this.change(tenant, () => null)
  }

  /** Back to the starting clock (a reset of the tenant). */
  async reset(tenant: string): Promise<void> {
    await this.change(tenant, () => undefined)
  }

  /** Every tenant back to the starting clock (a reset of all). */
  async resetAll(): Promise<void> {
    await this.options.keeper.clear()
  }

  private async clockOf(tenant: string): Promise<KeptClock> {
    return this.orStart(this.inRange(tenant, await this.options.keeper.read(tenant), this.options.realNow()))
  }

  /**
   * A kept clock whose time is out of the range (an older version's file, or its value in Redis)
   * is put back on real time, and told of: no answer can print its time.
   */
  private inRange(tenant: string, kept: KeptClock | undefined, realMs: number): KeptClock | undefined {
    if (!kept) return kept
    const time = timeOf(kept, realMs)
    if (isPrintable(time)) return kept
    this.options.onOutOfRange?.(tenant, kept)
    // Not waited for: the call reads real time at once, and a write that fails leaves it to the next read.
    void Promise.resolve(this.options.keeper.write(tenant, null)).catch(() => undefined)
    if (!(time < realMs)) void Promise.resolve(this.options.onRewind(tenant, realMs)).catch(() => undefined)
    return null
  }

  private async keepInRange(tenant: string, clock: KeptClock, next: ClockSetting, realMs: number): Promise<ClockView | ClockRefused> {
    const refused = outOfRange(next)
    return refused === undefined ? this.keep(tenant, clock, next, realMs) : { refused }
  }

  /** A tenant with no clock kept runs on the starting clock. */
  private orStart(kept: KeptClock | undefined): KeptClock {
    return kept === undefined ? this.start : kept
  }

  private async change(tenant: string, next: (clock: KeptClock, realMs: number) => KeptClock | undefined): Promise<ClockView> {
    const clock = await this.clockOf(tenant)
    const realMs = this.options.realNow()
    return this.keep(tenant, clock, next(clock, realMs), realMs)
  }

  /** Keeps the tenant's next clock (`kept`, over `clock`) and tells `onRewind` when its time went back. */
  private async keep(tenant: string, clock: KeptClock, kept: KeptClock | undefined, realMs: number): Promise<ClockView> {
    await this.options.keeper.write(tenant, kept)
    const after = this.orStart(kept)
    const now = timeOf(after, realMs)
    if (now < timeOf(clock, realMs)) await this.options.onRewind(tenant, now)
    return viewOf(after, realMs)
  }
}

/**
 * A tenant's time on its way from where the clocks are kept (Redis): `ms` once the clock is read,
 * and what makes it from the clock kept, so that an adapter keeping its own state beside the
 * clocks (the rate limit's buckets) can read the clock there, in its own trip, and find the same
 * time: `timeOf(kept clock, or start, realMs)`.
 */
export interface PendingTime {
  readonly ms: Promise<number>
  /** The real time the clock is read at. */
  readonly realMs: number
  /** The clock of a tenant with none kept. */
  readonly start: KeptClock
}

/** The clocks in this process's memory; with `durable` (the --db store), each change is stored there too. */
export class MemoryClockKeeper implements ClockKeeper {
  private readonly clocks = new Map<string, KeptClock>()

  constructor(private readonly durable?: DurableClocks) {
    for (const [tenant, clock] of durable?.savedClocks() ?? []) this.clocks.set(tenant, clock)
  }

  read(tenant: string): KeptClock | undefined {
    return this.clocks.get(tenant)
  }

  held(): Iterable<[string, KeptClock]> {
    return [...this.clocks]
  }

  async write(tenant: string, clock: KeptClock | undefined): Promise<void> {
    await this.durable?.keepClock(tenant, clock)
    if (clock === undefined) this.clocks.delete(tenant)
    else this.clocks.set(tenant, clock)
  }

  async clear(): Promise<void> {
    await Promise.all([...this.clocks.keys()].map((tenant) => this.durable?.keepClock(tenant, undefined)))
    this.clocks.clear()
  }
}

/** Where the memory keeper makes its clocks durable, and reads them back at the start: the store (the --db file). */
export interface DurableClocks {
  /** Makes a tenant's clock durable (undefined: none kept); in memory, nothing to do. */
  keepClock(tenant: string, clock: KeptClock | undefined): Promise<void>
  /** The clocks kept by an earlier run, to be taken back into memory. */
  savedClocks(): Iterable<[string, KeptClock]>
}
