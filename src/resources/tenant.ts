import { createHash } from 'node:crypto'
import { Lru } from '../lib/lru.ts'

/** Whose data a request sees: the API key names the tenant, and its ids derive from the key. */
export interface TenantIds {
  readonly key: string
  readonly organizationId: string
  readonly environmentId: string
}

/** Keys seen recently, so a request does not hash its key twice; bounded like every cache here, in count and key length. */
const known = new Lru<TenantIds>(10_000, { longestKey: 256 })

export function tenantFor(key: string): TenantIds {
  return known.remember(key, tenantOfKey)
}

const tenantOfKey = (key: string): TenantIds => ({ key, organizationId: idFrom('organization', key), environmentId: idFrom('environment', key) })

/** 24 lowercase hex characters, the same for the same key on every run. */
function idFrom(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\0${key}`).digest('hex').slice(0, 24)
}
