import { createHash } from 'node:crypto'
import { ApiError } from '../../answer/api-error.ts'
import { hashOfKey } from '../../log/request-log.ts'
import type { OperationContext } from '../../resources/operation-context.ts'
import type { MemoryPort, SeedSpec, StateAdminPort } from '../../store/store.ts'

type TenantRequest = import('../../contract/generated/admin-types.ts').components['schemas']['TenantRequest']

export interface TenantDefaults {
  seed: SeedSpec
  /** Called with each created key, so that strict mode accepts it. */
  acceptKey(key: string): void
  /** The keys `--api-key` accepts (none: open mode): no caller creates another one's tenant. */
  strictKeys: ReadonlySet<string>
}

export function tenantHandlers(defaults: TenantDefaults) {
  return {
    listTenants: async ({ store }: OperationContext<unknown, StateAdminPort & MemoryPort>) => ({
      tenants: (await store.tenants()).map(({ key, calls, kept, created }) => ({ apiKey: key, calls, kept, created })),
      released: store.released(),
      memory: store.memory(),
    }),

    createTenant: async ({ store, tenant, input, now }: OperationContext<{ body: TenantRequest }, StateAdminPort>) => {
      const { apiKey: given, ...volumes } = input.body
      // Another holder's accepted key: its seed is its holder's to choose (docs/behaviour.md §3).
      if (given !== undefined && given !== tenant.key && defaults.strictKeys.has(given)) {
        throw new ApiError(403, 'TENANT_OF_ANOTHER_KEY', `Tenant ${hashOfKey(given)} belongs to another accepted API key`)
      }
      const options: SeedSpec = { ...defaults.seed, ...volumes }
      if (volumes.subscribers !== undefined && volumes.messages === undefined) delete options.messages
      // The store makes the seed from the options, and keeps the options (not the records) with --db.
      // At a full bound, TenantLimitReached is answered 503 like a new key on the API; past the
      // memory budget, 503 too, or 413 for a tenant that alone would pass it.
      for (let attempt = 0; ; attempt++) {
        const apiKey = given ?? madeKey(tenant.key, now().getTime(), attempt)
        const counts = await store.createTenant(apiKey, options)
        if (counts) {
          defaults.acceptKey(apiKey)
          return { apiKey, seed: options.seed, counts }
        }
        if (given !== undefined) throw new ApiError(409, 'TENANT_EXISTS', `Tenant ${hashOfKey(given)} already exists`)
      }
    },
  }
}

/**
 * A key for a created tenant that names none: made from the caller's key, its time and the
 * attempt (the first unused one), so the same calls on the same clock make the same keys
 * (docs/behaviour.md §8), yet no one guesses another caller's.
 */
function madeKey(callerKey: string, now: number, attempt: number): string {
  return `mock_${createHash('sha256').update(`${callerKey}\0${now}\0${attempt}`).digest('hex').slice(0, 32)}`
}
