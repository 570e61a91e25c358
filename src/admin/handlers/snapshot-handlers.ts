import { notFound, validationFailed } from '../../answer/api-error.ts'
import type { Handler, OperationContext } from '../../resources/operation-context.ts'
import type { SnapshotsPort } from '../../store/store.ts'

type AdminOperations = import('../../contract/generated/admin-types.ts').operations
type Named = OperationContext<{ path: { name: string } }, SnapshotsPort>

/** Snapshots kept per tenant; each is a reference, but the list is bounded like every buffer. */
export const MAX_SNAPSHOTS = 100

const missing = (name: string) => notFound('SNAPSHOT_NOT_FOUND', `Snapshot ${name} not found`)

export const snapshotHandlers = {
  listSnapshots: async ({ store, tenant }: OperationContext<unknown, SnapshotsPort>) => ({ snapshots: await store.listSnapshots(tenant.key) }),

  saveSnapshot: async ({ store, tenant, input, now }: OperationContext<{ body: { name: string } }, SnapshotsPort>) => {
    const { name } = input.body
    const existing = await store.listSnapshots(tenant.key)
    if (existing.length >= MAX_SNAPSHOTS && !existing.some((s) => s.name === name)) {
      throw validationFailed({ name: { messages: [`at most ${MAX_SNAPSHOTS} snapshots per tenant`], value: name } })
    }
    return store.saveSnapshot(tenant.key, name, now())
  },

  restoreSnapshot: async ({ store, tenant, input }: Named) => {
    const restored = await store.restoreSnapshot(tenant.key, input.path.name)
    if (!restored) throw missing(input.path.name)
    return restored
  },

  deleteSnapshot: async ({ store, tenant, input }: Named) => {
    const deleted = await store.deleteSnapshot(tenant.key, input.path.name)
    if (!deleted) throw missing(input.path.name)
    return deleted
  },
} satisfies Partial<Record<keyof AdminOperations, Handler>>
