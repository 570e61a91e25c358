import { inSlices, type Steps } from '../../lib/slices.ts'
import type { Change, OverlayRow, RecordKind, SavedSnapshot, TenantSeed, TenantUpdate } from '../../store/store-backend.ts'
import type { KeyRecord } from '../../store/store.ts'
import { RELOAD } from './change-texts.ts'
import { clockFromText } from '../../clock/clock-setting.ts'
import type { TenantFaults } from '../../store/tenant-parts/tenant-faults.ts'

type Nested = string | number | null | Nested[]
/** What the SINCE script answers (redis-scripts.ts). */
export type SinceAnswer = [number, ...Nested[]]

/** A whole tenant of more rows than asked for: read on the bulk connection. */
export const LARGE = 'large'

/** The script's answer; `reload` when a change past the version held was too large to be listed. */
export async function updateOf([version, form, ...rest]: SinceAnswer): Promise<TenantUpdate | typeof RELOAD | typeof LARGE> {
  if (form === undefined) return { version, changes: [] }
  if (form === 'none') return { version, tenant: undefined }
  if (form === LARGE) return LARGE
  if (form === 'changes') {
    const entries = (rest as string[]).map((entry) => entry.slice(entry.indexOf('\n') + 1))
    return entries.includes(RELOAD) ? RELOAD : { version, changes: entries.map((entry) => JSON.parse(entry) as Change) }
  }
  const [seed, rows, snapshots, clockText, faultsText, keyRecords = []] = rest as [string, string[], [string, string, string[]][], string, string, string[]?]
  const saved: SavedSnapshot[] = []
  for (const [name, createdAt, snapshotRows] of snapshots) saved.push({ name, createdAt, rows: await rowsOf(snapshotRows) })
  const clock = clockText ? clockFromText(clockText) : undefined
  const faults = faultsOf(faultsText)
  const records = keyRecords.map((json) => JSON.parse(json) as KeyRecord)
  const value = { ...(clock === undefined ? {} : { clock }), ...(faults && { faults }), keyRecords: records }
  return { version, tenant: { ...(seed ? { seed: JSON.parse(seed) as TenantSeed } : {}), rows: await rowsOf(rows), snapshots: saved, ...value } }
}

/** A tenant's fault rules as its value's hash keeps them (HGET answers null, or '' in SINCE's answer, for none). */
export function faultsOf(text: string | null | undefined): TenantFaults | undefined {
  return text ? (JSON.parse(text) as TenantFaults) : undefined
}

/** A rows hash, as HGETALL lists it (field, value, field, value…), parsed in slices: a 50 MB state's took 0.2 s. */
const rowsOf = (flat: string[]): Promise<OverlayRow[]> => inSlices(rowSteps(flat))

function* rowSteps(flat: string[]): Steps<OverlayRow[]> {
  const rows: OverlayRow[] = []
  for (let i = 0; i < flat.length; i += 2) {
    const field = flat[i]!
    const value = flat[i + 1]!
    const space = field.indexOf(' ')
    const newline = value.indexOf('\n')
    rows.push({ kind: field.slice(0, space) as RecordKind, id: field.slice(space + 1), seq: Number(value.slice(0, newline)), record: JSON.parse(value.slice(newline + 1)) as object | null })
    yield
  }
  return rows
}
