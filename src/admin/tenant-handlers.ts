import { randomUUID } from 'node:crypto'
import { ApiError } from '../answer/api-error.ts'
import type { OperationContext } from '../resources/operation-context.ts'
import type { SeedSpec, StateAdminPort } from '../store/store.ts'

type TenantRequest = import('../contract/generated/admin-types.ts').components['schemas']['TenantRequest']

export interface TenantDefaults {
  seed: SeedSpec
  /** Called with each created key, so that strict mode accepts it. */
  acceptKey(key: string): void
}

export function tenantHandlers(defaults: TenantDefaults) {
  return {
    listTenants: async ({ store }: OperationContext<unknown, StateAdminPort>) => ({
      tenants: (await store.tenants()).map(({ key, calls, kept, created }) => ({ apiKey: key, calls, kept, created })),
    }),

    createTenant: async ({ store, input }: OperationContext<{ body: TenantRequest }, StateAdminPort>) => {
      const { apiKey = `mock_${randomUUID()}`, ...volumes } = input.body
      const options: SeedSpec = { ...defaults.seed, ...volumes }
      if (volumes.subscribers !== undefined && volumes.messages === undefined) delete options.messages
      // The store makes the seed from the options, and keeps the options (not the records) with --db.
      // At a full bound, TenantLimitReached is answered 503 like a new key on the API.
      const counts = await store.createTenant(apiKey, options)
      if (!counts) throw new ApiError(409, 'TENANT_EXISTS', `Tenant with this API key already exists`)
      defaults.acceptKey(apiKey)
      return { apiKey, seed: options.seed, counts }
    },
  }
}
