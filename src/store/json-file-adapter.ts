import { DataFile } from 'lowdb/node'
import type { TenantState } from './records.ts'
import type { Snapshot, StoreData } from './store-data.ts'
import { stateFromTenantData, tenantDataFromState, type TenantData } from './tenant-data.ts'

/** The file's shape: plain JSON, one state per tenant that has left the shared seed. */
interface StoreFile {
  version: 1
  tenants: Record<string, TenantState>
  seeds: Record<string, TenantState>
  snapshots: Record<string, Record<string, { createdAt: string; state: TenantState }>>
}

/** A store file that cannot be read: the start stops with this message. */
export class StoreFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StoreFileError'
  }
}

/**
 * lowdb's DataFile (an atomic write: a temporary file renamed over the old one) with Maps and
 * immutable tenant data turned into JSON and back. Tenants still on the shared seed are not
 * written: they come back identical from it.
 */
export function jsonFileAdapter(file: string, sharedSeed: TenantData): DataFile<StoreData> {
  return new DataFile<StoreData>(file, {
    parse: (text) => fromFile(file, text),
    stringify: (data) => JSON.stringify(toFile(data, sharedSeed)),
  })
}

function toFile(data: StoreData, sharedSeed: TenantData): StoreFile {
  const states = (entries: Iterable<[string, TenantData]>) =>
    Object.fromEntries([...entries].filter(([, tenant]) => tenant !== sharedSeed).map(([key, tenant]) => [key, stateFromTenantData(tenant)]))
  const snapshots = Object.fromEntries(
    [...data.snapshots].map(([tenant, named]) => [
      tenant,
      Object.fromEntries([...named].map(([name, s]) => [name, { createdAt: s.createdAt, state: stateFromTenantData(s.data) }])),
    ]),
  )
  return { version: 1, tenants: states(data.tenants), seeds: states(data.seeds), snapshots }
}

function fromFile(file: string, text: string): StoreData {
  let parsed: StoreFile
  try {
    parsed = JSON.parse(text) as StoreFile
  } catch (error) {
    throw new StoreFileError(`${file}: not a novu-mock store (${(error as Error).message})`)
  }
  if (parsed?.version !== 1 || typeof parsed.tenants !== 'object' || typeof parsed.snapshots !== 'object') {
    throw new StoreFileError(`${file}: not a novu-mock store (expected version 1 with tenants and snapshots)`)
  }
  const tenants = (states: Record<string, TenantState>) =>
    new Map(Object.entries(states ?? {}).map(([key, state]) => [key, tenantDataFromState(state)]))
  const snapshots = new Map(
    Object.entries(parsed.snapshots).map(([tenant, named]) => [
      tenant,
      new Map<string, Snapshot>(Object.entries(named).map(([name, s]) => [name, { createdAt: s.createdAt, data: tenantDataFromState(s.state) }])),
    ]),
  )
  return { tenants: tenants(parsed.tenants), seeds: tenants(parsed.seeds), snapshots }
}
