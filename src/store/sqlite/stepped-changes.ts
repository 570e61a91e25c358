import { checkedSteps, inSlices, type Steps } from '../../lib/slices.ts'
import { STEPPED_ROWS, type Change, type OverlayRow } from '../store-backend.ts'
import type { RowOwners } from './row-owners.ts'
import type { SnapshotRows } from './snapshot-rows.ts'

/** What the backend's statements do that a stepped change needs (sqlite-backend.ts). */
export interface StepStatements {
  putRow(owner: string, row: OverlayRow): void
  apply(change: Change): void
  listSnapshot(tenant: string, name: string, createdAt: string): void
  unlistSnapshot(tenant: string, name: string): void
}

/**
 * Writes a change in steps: what it moves, where no read sees it; then `transact` runs, which
 * makes it (`made`) in one transaction with the write's other changes.
 */
export type SteppedChange = (transact: (made: () => void) => void) => Promise<void>

const noRows = function* (): Steps<void> {}

/**
 * Which changes move enough rows to be written in steps (docs/decisions.md, 2026-11-26 and
 * 2026-11-27), and how: a replace, a reset, a tenant created again and a restore write the
 * tenant's new rows under a fresh owner (row-owners.ts); a new snapshot is copied before it is
 * listed, a deleted one unlisted before its rows go (snapshot-rows.ts). Each is still all or
 * nothing: a process stopped half-way comes back with the state from before. A snapshot saved
 * over one of the same name is written at once, so the old one stays whole until the new one is.
 */
export function steppedChanges(owners: RowOwners, snapshots: SnapshotRows, statements: StepStatements, open: () => void) {
  const newRows = (tenant: string, fill: (owner: string) => Steps<void>, also?: () => void): SteppedChange => (transact) =>
    owners.replaceInSteps(tenant, fill, (point) => transact(() => (point(), also?.())), open)

  /**
   * The change, written in steps, when it moves many rows. A save copies the rows as they stand
   * before the write: one after other changes of its write (`first` false) is made with them.
   */
  return function steppedOf(change: Change, first: boolean): SteppedChange | undefined {
    const { tenant } = change
    switch (change.type) {
      case 'replace':
        if (change.rows.length < STEPPED_ROWS && !owners.holdsMany(tenant)) return undefined
        return newRows(tenant, (owner) => owners.written(owner, change.rows, statements.putRow))
      case 'createTenant':
        // Over the fresh owner, which holds no rows, the change itself only stores the seed.
        return owners.holdsMany(tenant) ? newRows(tenant, noRows, () => statements.apply(change)) : undefined
      case 'restoreSnapshot':
        if (!owners.holdsMany(tenant) && !snapshots.holdsMany(tenant, change.name)) return undefined
        return newRows(tenant, (owner) => snapshots.restored(owner, tenant, change.name))
      case 'saveSnapshot': {
        const { name, createdAt } = change
        if (!first || !owners.holdsMany(tenant) || snapshots.isListed(tenant, name)) return undefined
        return async (transact) => {
          // A slice looks at the clock after every step: each costs a few milliseconds.
          await inSlices(checkedSteps(snapshots.saved(owners.ownerOf(tenant), tenant, name), open), 1)
          transact(() => statements.listSnapshot(tenant, name, createdAt))
        }
      }
      case 'deleteSnapshot':
        if (!snapshots.holdsMany(tenant, change.name)) return undefined
        return async (transact) => {
          transact(() => statements.unlistSnapshot(tenant, change.name))
          snapshots.removeInSteps(tenant, change.name)
        }
      default:
        return undefined
    }
  }
}

/** A save waits until the rows of a snapshot of its name, deleted before, are gone. */
export function removalsBefore(snapshots: SnapshotRows, changes: readonly Change[]): Promise<void> | undefined {
  for (const change of changes) {
    const removal = change.type === 'saveSnapshot' ? snapshots.settled(change.tenant, change.name) : undefined
    if (removal) return removal
  }
  return undefined
}
