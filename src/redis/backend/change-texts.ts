import type { Change, OverlayRow } from '../../store/store-backend.ts'
import type { KeyRecord } from '../../store/store.ts'

/** A change listed as `reload`: the instances behind it read the tenant again. */
export const RELOAD = 'reload'

/** A change as the tenant's list keeps it: its JSON, or RELOAD when that is longer than `limit`. */
export const listed = (change: Change, limit: number): string => {
  const json = JSON.stringify(change)
  return json.length > limit ? RELOAD : json
}

/** Each row's record as JSON, made once for both the row's arguments and the change listed (listedRows). */
export const recordTexts = (rows: readonly OverlayRow[]): string[] => rows.map(({ record }) => JSON.stringify(record))

/**
 * `listed(change, limit)` for a change of rows (a put, a replace), written around the records'
 * JSON (`records`, recordTexts) rather than serializing every record a second time.
 */
export function listedRows({ type, tenant, rows }: Change & { rows: readonly OverlayRow[] }, records: readonly string[], limit: number): string {
  const listedRows = rows.map(({ kind, id, seq }, i) => `{"kind":${JSON.stringify(kind)},"id":${JSON.stringify(id)},"record":${records[i]}${seq === undefined ? '' : `,"seq":${seq}`}}`)
  const json = `{"type":${JSON.stringify(type)},"tenant":${JSON.stringify(tenant)},"rows":[${listedRows.join(',')}]}`
  return json.length > limit ? RELOAD : json
}

/** A row as the write scripts take it: its field, what becomes of its place, and its record's JSON (`record`, made already). */
export const rowArguments = ({ kind, id, seq }: OverlayRow, record: string): string[] => [`${kind} ${id}`, seq === undefined ? 'keep' : seq > 0 ? 'new' : '0', record]

/** An idempotency record as the tenant's `key-records` hash keeps it: its expiry last, where the scripts find it (redis-scripts.ts). */
export const keyRecordJson = ({ key, method, path, print, status, answer, expiresAt }: KeyRecord): string =>
  JSON.stringify({ key, method, path, print, status, answer, expiresAt })
