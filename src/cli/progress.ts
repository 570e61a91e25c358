import type { SeedProgress } from '../seed/progress-counter.ts'
import type { SeedVolumes } from '../seed/seed-options.ts'

/** Records generated above which seeding takes long enough to deserve a bar. */
export const PROGRESS_THRESHOLD = 50_000
const BAR_WIDTH = 30

/** What the bar writes to: stderr, or a fake terminal in tests. */
export interface ProgressStream {
  isTTY?: boolean
  write(text: string): unknown
}

/** Records a seed of these volumes generates, about: messages default to 5 per subscriber. */
export function seedSize(volumes: SeedVolumes): number {
  return volumes.subscribers + volumes.channelConnections + (volumes.messages ?? 5 * volumes.subscribers)
}

/**
 * A bar redrawn in place on a terminal (only when the percentage moves), ended by a newline at
 * 100%. Undefined when the stream is not a terminal, or the seed is small: a log file or a pipe
 * gets no carriage returns.
 */
export function seedProgressBar(stream: ProgressStream, volumes: SeedVolumes): SeedProgress | undefined {
  if (!stream.isTTY || seedSize(volumes) <= PROGRESS_THRESHOLD) return undefined
  let shown = -1
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.min(100, Math.floor((done * 100) / total))
    if (percent === shown) return
    shown = percent
    const filled = Math.round((BAR_WIDTH * percent) / 100)
    const count = `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} records`
    stream.write(`\rseeding [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}% ${count}${percent === 100 ? '\n' : ''}`)
  }
}
