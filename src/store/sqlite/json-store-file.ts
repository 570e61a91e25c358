import { readFileSync } from 'node:fs'
import { rowsOfState } from '../memory/overlay.ts'
import { toEnd } from '../../lib/slices.ts'
import type { TenantState } from '../records.ts'
import type { Change } from '../store-backend.ts'
import { StoreFileError } from '../store.ts'
import { tenantDataFromState } from '../memory/tenant-data.ts'

/** The JSON store file of earlier versions: one whole state per tenant that left the shared seed. */
interface JsonStoreFile {
  version: 1
  tenants: Record<string, TenantState>
  /** Seeds of the tenants created with their own: the records, since their options were not kept. */
  seeds?: Record<string, TenantState>
  snapshots: Record<string, Record<string, { createdAt: string; state: TenantState }>>
}

/**
 * A JSON store file as the changes that make it over `seed`: its created tenants, each snapshot
 * (the tenant's rows set to the snapshot's, then saved), then each tenant's own rows.
 */
export function readJsonStore(file: string, seed: TenantState): Change[] {
  const parsed = parse(file)
  const shared = tenantDataFromState(seed)
  const seeds = new Map(Object.entries(parsed.seeds ?? {}).map(([tenant, state]) => [tenant, tenantDataFromState(state)]))
  let seq = 0
  const rowsOf = (tenant: string, state: TenantState) => toEnd(rowsOfState(seeds.get(tenant) ?? shared, state, () => ++seq))
  const changes: Change[] = Object.entries(parsed.seeds ?? {}).map(([tenant, state]) => ({ type: 'createTenant', tenant, seed: { state } }))
  for (const [tenant, named] of Object.entries(parsed.snapshots)) {
    for (const [name, { createdAt, state }] of Object.entries(named)) {
      changes.push({ type: 'replace', tenant, rows: rowsOf(tenant, state) }, { type: 'saveSnapshot', tenant, name, createdAt })
    }
  }
  const touched = new Set([...Object.keys(parsed.tenants), ...Object.keys(parsed.snapshots)])
  for (const tenant of touched) {
    const state = parsed.tenants[tenant]
    changes.push({ type: 'replace', tenant, rows: state ? rowsOf(tenant, state) : [] })
  }
  return changes
}

function parse(file: string): JsonStoreFile {
  let parsed: JsonStoreFile
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as JsonStoreFile
  } catch (error) {
    throw new StoreFileError(`${file}: not a novu-mock store (${(error as Error).message})`)
  }
  if (parsed?.version !== 1 || typeof parsed.tenants !== 'object' || typeof parsed.snapshots !== 'object') {
    throw new StoreFileError(`${file}: not a novu-mock store (expected version 1 with tenants and snapshots)`)
  }
  return parsed
}
