import type { Cluster, Redis } from 'ioredis'
import type { RedisClient } from '../redis-connection.ts'
import { GLOBAL_KEYS, TENANT_KEYS_PATTERN, tenantKeyBase } from '../redis-keys.ts'

/** Keys deleted per DEL, and asked for per SCAN step. */
const BATCH = 500

/**
 * Deletes every key of the tenants (records, snapshots, clock, journal, fault rules, idempotency
 * records, bucket: all start with the tenant's key base) and unlists them. Their keys are found by
 * one SCAN over every master (a tenant's keys share one hash slot, so each DEL goes to one node).
 */
export async function deleteTenants(client: RedisClient, tenants: readonly string[]): Promise<void> {
  if (tenants.length === 0) return
  const bases = new Set(tenants.map(tenantKeyBase))
  const byTenant = new Map<string, string[]>()
  const nodes: Redis[] = client.isCluster ? (client as Cluster).nodes('master') : [client as Redis]
  for (const node of nodes) {
    let cursor = '0'
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', TENANT_KEYS_PATTERN, 'COUNT', BATCH)
      cursor = next
      for (const key of keys) {
        const base = key.slice(0, key.indexOf('}:') + 2)
        if (!bases.has(base)) continue
        const held = byTenant.get(base)
        if (held) held.push(key)
        else byTenant.set(base, [key])
      }
    } while (cursor !== '0')
  }
  for (const keys of byTenant.values()) {
    for (let i = 0; i < keys.length; i += BATCH) await client.del(...keys.slice(i, i + BATCH))
  }
  for (let i = 0; i < tenants.length; i += BATCH) {
    const some = tenants.slice(i, i + BATCH)
    await Promise.all([client.srem(GLOBAL_KEYS.tenants, ...some), client.zrem(GLOBAL_KEYS.called, ...some)])
  }
}
