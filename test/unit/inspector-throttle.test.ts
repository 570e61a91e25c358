import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

type Throttled = (options?: { now?: boolean }) => void
/** The page's own module, plain JavaScript served to the browser as it is. */
const PAGE_MODULE = '../../src/admin/ui/throttle.js'
const { throttled } = (await import(PAGE_MODULE)) as { throttled: (run: () => Promise<void>, intervalMs: number) => Throttled }

describe('the inspector page’s throttle (re-reads at most once a second, however many calls arrive)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('folds a burst into one run, then one more after the interval for what came meanwhile', async () => {
    let runs = 0
    const refresh = throttled(async () => void runs++, 1000)
    for (let i = 0; i < 500; i++) refresh()
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toBe(1)
    for (let i = 0; i < 500; i++) {
      refresh()
      await vi.advanceTimersByTimeAsync(1)
    }
    // 500 ms of calls, one a millisecond, after the first run: one more run, once the second is up.
    expect(runs).toBe(1)
    await vi.advanceTimersByTimeAsync(500)
    expect(runs).toBe(2)
    await vi.advanceTimersByTimeAsync(5000)
    expect(runs).toBe(2)
  })

  it('runs at once for the user’s own action, but never beside a run in flight', async () => {
    const finish: Array<() => void> = []
    let started = 0
    const refresh = throttled(() => new Promise<void>((resolve) => void (started++, finish.push(resolve))), 1000)
    refresh({ now: true })
    await vi.advanceTimersByTimeAsync(0)
    refresh({ now: true })
    refresh()
    await vi.advanceTimersByTimeAsync(0)
    expect(started).toBe(1)
    finish.shift()!()
    await vi.advanceTimersByTimeAsync(0)
    expect(started).toBe(2)
  })
})
