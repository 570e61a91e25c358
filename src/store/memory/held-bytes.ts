import { jsonLength } from '../../lib/json/json-length.ts'
import type { Steps } from '../../lib/slices.ts'
import type { TenantState } from '../records.ts'
import type { StateCounts } from '../store.ts'
import type { TenantData } from './tenant-data.ts'

/**
 * What a tenant's records cost in memory, estimated from their JSON (docs/behaviour.md §3): a
 * record held as objects takes about twice its JSON's length of heap (2.1 measured on seeded
 * records of every kind), so each JSON character counts two bytes and a budget of half the heap
 * leaves the other half to the process (docs/decisions.md, 2026-11-28).
 */
export const HEAP_BYTES_PER_JSON_CHAR = 2

/** Each record's estimate, once measured: records never change, so neither does their size. */
const recordSizes = new WeakMap<object, number>()
/** Each tenant value's estimate of the records it holds beyond the shared seed (unknown: none, the shared seed itself). */
const dataSizes = new WeakMap<TenantData, number>()

/** A record's estimate, measured once. */
export function recordBytes(record: object): number {
  let bytes = recordSizes.get(record)
  if (bytes === undefined) {
    // Its JSON's length, measured without writing the JSON: every write measures the records it puts.
    bytes = (jsonLength(record) ?? 0) * HEAP_BYTES_PER_JSON_CHAR
    recordSizes.set(record, bytes)
  }
  return bytes
}

/** A record's JSON length if the store measured it already (every record a write put in memory), else undefined. */
export function measuredJsonLength(record: object): number | undefined {
  const bytes = recordSizes.get(record)
  return bytes === undefined ? undefined : bytes / HEAP_BYTES_PER_JSON_CHAR
}

/** What a record replaced frees: its estimate if it was measured as one of a tenant's own, none for a record of the shared seed. */
export const replacedBytes = (record: object | undefined | null): number => (record ? (recordSizes.get(record) ?? 0) : 0)

/** The estimate of what a tenant value holds beyond the shared seed. */
export const bytesOfData = (data: TenantData): number => dataSizes.get(data) ?? 0

/** `data`, known to hold `bytes` beyond the shared seed. */
export function withBytes(data: TenantData, bytes: number): TenantData {
  dataSizes.set(data, Math.max(0, bytes))
  return data
}

/** `bytes`, after `changes` replace or add records of `base`. */
export function afterChanges(bytes: number, base: Pick<ReadonlyMap<string, object>, 'get'>, changes: ReadonlyMap<string, object | null> | undefined): number {
  if (changes) for (const [id, record] of changes) bytes += (record ? recordBytes(record) : 0) - replacedBytes(base.get(id))
  return bytes
}

/** The estimate of a state, a step per record (each measured once, so what is built of it later measures nothing again). */
export function* stateBytesSteps(state: TenantState): Steps<number> {
  let bytes = 0
  for (const records of [state.subscribers, state.integrations, state.channelConnections, state.messages, state.workflows ?? []] as object[][]) {
    for (const record of records) yield void (bytes += recordBytes(record))
  }
  return bytes
}

/** Average estimates per record of each kind, measured on a sample of the shared seed; a kind it lacks counts this. */
const FALLBACK_RECORD_BYTES = 2_000 * HEAP_BYTES_PER_JSON_CHAR
const SAMPLE = 100

export type RecordAverages = Record<keyof StateCounts, number>

/** The averages of the seed's records per kind: what a tenant seeded with other counts costs is known before it is made. */
export function averagesOf(seed: TenantState): RecordAverages {
  const average = (records: readonly object[]) => {
    const sample = records.slice(0, SAMPLE)
    // Measured without keeping their sizes: the shared seed's records count as none of a tenant's own.
    return sample.length === 0 ? FALLBACK_RECORD_BYTES : Math.ceil((sample.reduce((sum, r) => sum + JSON.stringify(r).length, 0) / sample.length) * HEAP_BYTES_PER_JSON_CHAR)
  }
  return {
    subscribers: average(seed.subscribers),
    integrations: average(seed.integrations),
    channelConnections: average(seed.channelConnections),
    messages: average(seed.messages),
  }
}

/** The estimate of a tenant of these counts, from the averages. */
export const bytesOfCounts = (counts: StateCounts, averages: RecordAverages): number =>
  counts.subscribers * averages.subscribers +
  counts.integrations * averages.integrations +
  counts.channelConnections * averages.channelConnections +
  counts.messages * averages.messages
