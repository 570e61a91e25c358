import { inSlices, type Steps } from '../../lib/slices.ts'
import type { OverlayRow } from '../../store/store-backend.ts'
import { rowArguments } from './change-texts.ts'

/** Rows sent to Redis in one step: a few milliseconds for each side. */
const ROWS_PER_STEP = 1_000
/** A staged hash never made a tenant's rows (its process stopped half-way) is gone after this. */
const STAGED_TTL_MS = 10 * 60 * 1000

/** Sends one step's rows to the staged hash (STAGE): the TTL in ms, then field, seq, record per row. */
export type Stage = (staged: string, ttlMs: number, args: readonly string[]) => Promise<unknown>

/**
 * Sends the rows to the staged hash a step at a time, between turns of the event loop, without
 * waiting for each; settles once Redis has taken every step, or rejects with the first failure.
 */
export async function stageRows(stage: Stage, staged: string, rows: readonly OverlayRow[]): Promise<void> {
  const sent: Promise<void>[] = []
  let failed: { error: unknown } | undefined
  function* steps(): Steps<void> {
    for (let from = 0; from < rows.length && !failed; from += ROWS_PER_STEP) {
      const args = rows.slice(from, from + ROWS_PER_STEP).flatMap((row) => rowArguments(row, JSON.stringify(row.record)))
      // Caught at once: a step failing while later ones are still being made is no unhandled rejection.
      sent.push(stage(staged, STAGED_TTL_MS, args).then(() => undefined, (error: unknown) => void (failed ??= { error })))
      yield
    }
  }
  await inSlices(steps(), 1)
  await Promise.all(sent)
  if (failed) throw failed.error
}
