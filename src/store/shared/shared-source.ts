import { rowsOfPut } from '../memory/overlay.ts'
import type { SharedBackend } from '../store-backend.ts'
import { sharedTenants, writeFailure } from './shared-tenants.ts'
import { reached } from '../store.ts'
import { tenantLoader, type SourceParts, type TenantSource } from '../memory/tenant-source.ts'

/**
 * The tenants of the shared store: memory is a cache of the ones this process serves, brought up
 * to the shared backend's version before each use, each change written over the version held
 * (shared-tenants.ts).
 */
export const sharedSource =
  (backend: SharedBackend) =>
  ({ memory, saved, serialized, nextSeq, room }: SourceParts): TenantSource => {
    const { loaded, forget } = tenantLoader(memory, backend, saved)
    const remote = sharedTenants(backend, memory, serialized, (data, tx) => rowsOfPut(data, tx.put(), nextSeq), room)
    return {
      durable: true,
      enter: remote.open,
      loaded,
      current: remote.sync,
      attempt: remote.attempt,
      read: remote.read,
      transact: remote.transact,
      // A write's own idempotency record is stored with it, by `transact`; `also` follows it (a reset forgets the records).
      async write(change, _keyed, also) {
        try {
          await remote.write(change)
          if (also) await remote.write(also)
        } catch (error) {
          throw writeFailure(error)
        }
      },
      peek: remote.peek,
      storedClock: (tenant) => reached(backend.clockOf(tenant)),
      storedFaults: (tenant) => reached(backend.faultRulesOf(tenant)),
      isStored: remote.hasState,
      takenElsewhere: remote.hasState,
      elsewhere: remote.tenants,
      forget(tenant, deleted) {
        remote.forget(tenant)
        if (deleted) forget(tenant)
      },
      dropTenants: (tenants) => backend.dropTenants(tenants),
    }
  }
