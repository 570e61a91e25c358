import type { Logger } from '../log/logger.ts'
import { hashOfKey } from '../log/request-log.ts'
import type { StoreKind } from '../store/store.ts'
import type { Policies } from './policies.ts'

/** What goes with a released tenant: its policies' state (its clock and idempotency records go, or stay, with its value in the store). */
export type Upkeep = Pick<Policies, 'journal' | 'faults' | 'rateLimiter'>

/** A tenant's fault rules, journal and bucket cleared: what a reset clears besides its value (docs/behaviour.md §3). */
export async function cleanPolicies(policies: Upkeep, tenant: string): Promise<void> {
  const { journal, faults, rateLimiter } = policies
  await Promise.all([faults.clear(tenant), journal.clear(tenant), rateLimiter.refill(tenant)])
}

/**
 * What goes with a tenant the store releases, per the table of docs/behaviour.md §3: in memory
 * everything; with --db the journal, fault rules and bucket (its value, idempotency records
 * included, stays stored); with --redis nothing (all of it is in Redis). The log names it by its hash.
 */
export function onRelease(kind: StoreKind, logger: Logger, policies: () => Upkeep | undefined) {
  return (tenant: string, { deleted }: { deleted: boolean }): void => {
    if (!deleted) logger.info('tenant released from memory', { tenant: hashOfKey(tenant), store: kind })
    else logger.info('tenant deleted', { tenant: hashOfKey(tenant), store: kind })
    const held = policies()
    if (!held || kind === 'redis' || kind === 'redis-cluster') return
    cleanPolicies(held, tenant).catch((error: unknown) =>
      logger.warn('a released tenant could not be cleared', { tenant: hashOfKey(tenant), error: String(error) }),
    )
  }
}
