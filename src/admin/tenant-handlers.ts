import { randomUUID } from 'node:crypto'
import type { SeedOptions } from '../seed/seed-options.ts'
import { ApiError } from '../answer/api-error.ts'
import type { OperationContext } from '../resources/operation-context.ts'
import { TenantLimitReached } from '../store/store.ts'
import { countsOf, tenantDataFromState } from '../store/tenant-data.ts'

type TenantRequest = import('../contract/generated/admin-types.ts').components['schemas']['TenantRequest']

export interface TenantDefaults {
  seed: SeedOptions
  /** Called with each created key, so that strict mode accepts it. */
  acceptKey(key: string): void
}

export function tenantHandlers(defaults: TenantDefaults) {
  return {
    createTenant: async ({ store, input }: OperationContext<{ body: TenantRequest }>) => {
      const { apiKey = `mock_${randomUUID()}`, ...volumes } = input.body
      const options: SeedOptions = { ...defaults.seed, ...volumes }
      if (volumes.subscribers !== undefined && volumes.messages === undefined) delete options.messages
      // Loaded when first needed: the generators (and faker) cost start-up time most runs never use.
      const { seedState } = await import('../seed/generators/seed.ts')
      const seed = seedState(options)
      const created = await store.createTenant(apiKey, seed).catch((error: unknown) => {
        if (error instanceof TenantLimitReached) {
          throw new ApiError(503, 'TENANT_LIMIT', 'Please wait some time, then try again.', { headers: { 'Retry-After': '60' } })
        }
        throw error
      })
      if (!created) throw new ApiError(409, 'TENANT_EXISTS', `Tenant with this API key already exists`)
      defaults.acceptKey(apiKey)
      return { apiKey, seed: options.seed, counts: countsOf(tenantDataFromState(seed)) }
    },
  }
}
