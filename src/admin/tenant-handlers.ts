import { randomUUID } from 'node:crypto'
import type { SeedOptions } from '../../fixtures/seed.ts'
import { ApiError } from '../http/api-error.ts'
import type { OperationContext } from '../resources/operation-context.ts'
import { countsOf, tenantDataFromState } from '../store/tenant-data.ts'

type TenantRequest = import('../contract/admin-types.ts').components['schemas']['TenantRequest']

export interface TenantDefaults {
  seed: SeedOptions
  /** Called with each created key, so that strict mode accepts it. */
  acceptKey(key: string): void
}

export function tenantHandlers(defaults: TenantDefaults) {
  return {
    listTenants: async ({ store }: OperationContext<unknown>) => ({
      tenants: store.tenants().map(({ key, calls, kept, created }) => ({ apiKey: key, calls, kept, created })),
    }),

    createTenant: async ({ store, input }: OperationContext<{ body: TenantRequest }>) => {
      const { apiKey = `mock_${randomUUID()}`, ...volumes } = input.body
      const options: SeedOptions = { ...defaults.seed, ...volumes }
      if (volumes.subscribers !== undefined && volumes.messages === undefined) delete options.messages
      // Loaded when first needed: the generators (and faker) cost start-up time most runs never use.
      const { seedState } = await import('../../fixtures/seed.ts')
      const seed = seedState(options)
      // At a full bound, TenantLimitReached is answered 503 like a new key on the API.
      const created = await store.createTenant(apiKey, seed)
      if (!created) throw new ApiError(409, 'TENANT_EXISTS', `Tenant with this API key already exists`)
      defaults.acceptKey(apiKey)
      return { apiKey, seed: options.seed, counts: countsOf(tenantDataFromState(seed)) }
    },
  }
}
