import { tenantKeyBase } from '../../redis/redis-connection.ts'

/** A tenant's fault rules in Redis: the rules' hash and their order, under the tenant's hash tag. */
export const keysOf = (tenant: string): [string, string] => {
  const base = tenantKeyBase(tenant)
  return [`${base}faults`, `${base}fault-order`]
}

/** The hash whose `v` field is the version of the tenant's rules ('' or absent: none). */
export const faultsKey = (tenant: string): string => keysOf(tenant)[0]
