import { randomUUID } from 'node:crypto'
import type { SeedOptions } from '../seed/seed-options.ts'
import { ApiError } from '../answer/api-error.ts'
import type { OperationContext } from '../resources/operation-context.ts'

type TenantRequest = import('../contract/generated/admin-types.ts').components['schemas']['TenantRequest']

export interface TenantDefaults {
  seed: SeedOptions
  /** Called with each created key, so that strict mode accepts it. */
  acceptKey(key: string): void
}

export function tenantHandlers(defaults: TenantDefaults) {
  return {
    listTenants: async ({ store }: OperationContext<unknown>) => ({
      tenants: (await store.tenants()).map(({ key, calls, kept, created }) => ({ apiKey: key, calls, kept, created })),
      released: store.released(),
    }),

    createTenant: async ({ store, input }: OperationContext<{ body: TenantRequest }>) => {
      const { apiKey = `mock_${randomUUID()}`, ...volumes } = input.body
      const options: SeedOptions = { ...defaults.seed, ...volumes }
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
