import { inSlices, toEnd, type Steps } from '../../lib/slices.ts'
import { ConnectionIndex } from './connections/connection-index.ts'
import { changed, LayeredMap } from './layered-map.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber, TenantState, TenantWorkflow } from '../records.ts'
import { RECORD_KINDS, type OverlayRow, type RecordKind, type SavedTenant } from '../store-backend.ts'
import type { TenantData } from './tenant-data.ts'
import { afterChanges, bytesOfData, recordBytes, withBytes } from './held-bytes.ts'

/** The records a transaction put, by kind and id (null: removed). */
export type PutRecords = Record<RecordKind, ReadonlyMap<string, object | null>>

type Records = ReadonlyMap<string, object>

const connectionsOf = (data: TenantData) => new Map([...data.connections.all()].map((c) => [c._id, c]))

/** A tenant's records, by kind: the connections as a map too. */
const recordsOf = (data: TenantData, kind: RecordKind): Records => (kind === 'channelConnections' ? connectionsOf(data) : data[kind])

const idOf = (kind: RecordKind, record: object): string =>
  kind === 'subscribers'
    ? (record as { subscriberId: string }).subscriberId
    : kind === 'workflows'
      ? (record as { workflowId: string }).workflowId
      : (record as { _id: string })._id

/**
 * The rows of a transaction's records: each at the place it holds, or (new to the tenant) after
 * the others, in the order put. `data` is the tenant before the transaction.
 */
export function rowsOfPut(data: TenantData, put: PutRecords, nextSeq: () => number): OverlayRow[] {
  const rows: OverlayRow[] = []
  for (const kind of RECORD_KINDS) {
    const held = kind === 'channelConnections' ? (id: string) => data.connections.get(id) !== undefined : (id: string) => data[kind].has(id)
    for (const [id, record] of put[kind]) rows.push({ kind, id, record, seq: held(id) ? undefined : nextSeq() })
  }
  return rows
}

/**
 * The rows that make `state` of `seed`: a record equal to the seed's costs none, one that differs
 * is replaced at its place, a new one is added after the seed's, and a seeded one left out is
 * removed. Records of the seed keep the seed's order; the added ones follow in the state's.
 */
export function* rowsOfState(seed: TenantData, state: TenantState, nextSeq: () => number): Steps<OverlayRow[]> {
  const rows: OverlayRow[] = []
  for (const kind of RECORD_KINDS) {
    const base = recordsOf(seed, kind)
    const kept = new Set<string>()
    for (const record of (state[kind] ?? []) as object[]) {
      const id = idOf(kind, record)
      kept.add(id)
      const seeded = base.get(id)
      if (seeded === undefined) rows.push({ kind, id, record, seq: nextSeq() })
      else if (seeded !== record && JSON.stringify(seeded) !== JSON.stringify(record)) rows.push({ kind, id, record, seq: 0 })
      yield
    }
    for (const id of base.keys()) if (!kept.has(id)) rows.push({ kind, id, record: null, seq: 0 })
  }
  return rows
}

/** The tenant after a `put` change of `rows` (as PendingTransaction.commit makes it). */
export function putOver(data: TenantData, rows: readonly OverlayRow[]): TenantData {
  const put = (kind: RecordKind) => new Map(rows.filter((row) => row.kind === kind).map((row) => [row.id, row.record]))
  const [subscribers, integrations, messages, connections, workflows] = [put('subscribers'), put('integrations'), put('messages'), put('channelConnections'), put('workflows')]
  let bytes = afterChanges(bytesOfData(data), data.subscribers, subscribers)
  bytes = afterChanges(afterChanges(bytes, data.integrations, integrations), data.messages, messages)
  bytes = afterChanges(afterChanges(bytes, data.connections, connections), data.workflows, workflows)
  return withBytes(
    {
      subscribers: changed(data.subscribers, subscribers as Map<string, StoredSubscriber | null>),
      integrations: LayeredMap.with(data.integrations, integrations as Map<string, StoredIntegration>),
      messages: changed(data.messages, messages as Map<string, StoredMessage | null>),
      connections: data.connections.with(connections as Map<string, StoredChannelConnection | null>),
      workflows: LayeredMap.with(data.workflows, workflows as Map<string, TenantWorkflow>),
    },
    bytes,
  )
}

/**
 * A stored tenant over its seed: its records, and its snapshots in the order saved; the seed
 * itself when nothing is stored. Made in slices: a large tenant read again (after a start, a
 * release, or a change another instance made) leaves other calls answered meanwhile.
 */
export function overlaidTenant(seed: TenantData, saved: SavedTenant | undefined) {
  return inSlices(overlaidTenantSteps(seed, saved))
}

function* overlaidTenantSteps(seed: TenantData, saved: SavedTenant | undefined) {
  const snapshots = new Map<string, { data: TenantData; createdAt: string }>()
  for (const snapshot of saved?.snapshots ?? []) snapshots.set(snapshot.name, { data: yield* overlaidSteps(seed, snapshot.rows), createdAt: snapshot.createdAt })
  return { data: saved ? yield* overlaidSteps(seed, saved.rows) : seed, snapshots }
}

/** The tenant that `rows` make of `seed` (see StoreBackend for the order). Kinds without rows share the seed's. */
export function overlaid(seed: TenantData, rows: readonly OverlayRow[]): TenantData {
  return toEnd(overlaidSteps(seed, rows))
}

/** overlaid's work, one step per row placed: an import of a large state runs it in slices (docs/behaviour.md §6). */
export function* overlaidSteps(seed: TenantData, rows: readonly OverlayRow[]): Steps<TenantData> {
  if (rows.length === 0) return seed
  const byKind = (kind: RecordKind) => rows.filter((row) => row.kind === kind)
  const connectionRows = byKind('channelConnections')
  const data = {
    subscribers: yield* overlaidMap(seed.subscribers, byKind('subscribers')),
    integrations: yield* overlaidMap(seed.integrations, byKind('integrations')),
    messages: yield* overlaidMap(seed.messages, byKind('messages')),
    connections: connectionRows.length === 0 ? seed.connections : ConnectionIndex.of(yield* overlaidMap(connectionsOf(seed), connectionRows)),
    workflows: yield* overlaidMap(seed.workflows, byKind('workflows')),
  }
  // The rows' records are what it holds beyond its seed (an import measured them already).
  let bytes = bytesOfData(seed)
  for (const row of rows) if (row.record) yield void (bytes += recordBytes(row.record))
  return withBytes(data, bytes)
}

/** Rows hold records of their kind: each row's record is of the base's type. */
function* overlaidMap<V>(base: ReadonlyMap<string, V>, rows: readonly OverlayRow[]): Steps<ReadonlyMap<string, V>> {
  if (rows.length === 0) return base
  const recordOf = (row: OverlayRow) => row.record as V
  const inPlace = rows.filter((row) => !row.seq)
  const added = rows.filter((row) => row.seq && row.record !== null).sort((a, b) => a.seq! - b.seq!)
  // Only replaced and new records, few beside the base: the shared base stays, under a small layer.
  // More, and LayeredMap would fold them into a copy of the base in one step: the copy is made here, a step per record.
  const layered =
    rows.length * rows.length <= base.size && inPlace.every((row) => row.record !== null && base.has(row.id)) && added.every((row) => !base.has(row.id))
  const map = new Map<string, V>()
  if (!layered) {
    for (const [id, record] of base) {
      map.set(id, record)
      yield
    }
  }
  for (const row of inPlace) {
    if (row.record === null) map.delete(row.id)
    else map.set(row.id, recordOf(row))
    yield
  }
  for (const row of added) {
    map.delete(row.id)
    map.set(row.id, recordOf(row))
    yield
  }
  return layered ? LayeredMap.with(base, map) : map
}
