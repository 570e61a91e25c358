import { createHash } from 'node:crypto'

/** Whose data a request sees: the API key names the tenant, and its ids derive from the key. */
export interface TenantIds {
  readonly key: string
  readonly organizationId: string
  readonly environmentId: string
}

/** Keys seen recently, so a request does not hash its key twice; bounded like every cache here. */
const known = new Map<string, TenantIds>()
const KNOWN_AT_MOST = 10_000

export function tenantFor(key: string): TenantIds {
  let tenant = known.get(key)
  if (!tenant) {
    if (known.size >= KNOWN_AT_MOST) known.clear()
    tenant = { key, organizationId: idFrom('organization', key), environmentId: idFrom('environment', key) }
    known.set(key, tenant)
  }
  return tenant
}

/** 24 lowercase hex characters, the same for the same key on every run. */
function idFrom(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\0${key}`).digest('hex').slice(0, 24)
}
