import { validationFailed } from '../../answer/api-error.ts'
import { shown } from '../../journal/kept-entry.ts'
import { invariantSteps } from '../../seed/state-invariants.ts'
import { inSlices } from '../../lib/slices.ts'
import { laidOver } from '../../pact/lay-records.ts'
import { pactOf, type SeedParams } from '../../pact/pact-document.ts'
import type { OperationContext } from '../../resources/operation-context.ts'
import type { SeedSpec, StateAdminPort } from '../../store/store.ts'
import type { JournalPort } from '../../journal/journal-port.ts'
import type { TenantClocks } from '../../policies/clock/tenant-clocks.ts'
import type { Contract } from '../../contract/load-contract.ts'
import type { Logger } from '../../log/logger.ts'

type AdminOperations = import('../../contract/generated/admin-types.ts').operations
type ExportQuery = AdminOperations['exportPact']['parameters']['query']
type StateChange = import('../../contract/generated/admin-types.ts').components['schemas']['PactStateChange']

/** What the Pact handlers read of the admin API's state (AdminInfo). */
export interface PactInfo {
  journal: JournalPort
  clocks: TenantClocks
  tenants: { seed: SeedSpec }
  api: Contract
  logger: Logger
}

/** The journal as a Pact, and the state change Pact's verifier calls (docs/behaviour.md §9). */
export function pactHandlers(info: PactInfo, resetTenant: (store: StateAdminPort, tenant: string) => Promise<void>) {
  const seed = seedParamsOf(info.tenants.seed)
  return {
    exportPact: async ({ tenant, input }: OperationContext<{ query: ExportQuery }>) => {
      const { consumer, provider = 'novu', statuses } = input.query
      const [entries, clock] = await Promise.all([info.journal.list(tenant.key, {}, true), info.clocks.get(tenant.key)])
      const pact = pactOf(
        { consumer, provider, allStatuses: statuses === 'all' },
        { entries, seed, tenantIds: tenant, frozen: clock.frozen, mainParameter: (operationId, path) => mainParameter(info, operationId, path) },
      )
      // The key is no header of the pact, yet a client may have put it in a body: never in the document.
      return JSON.parse(shown(JSON.stringify(pact), tenant.key)) as unknown
    },

    changePactState: async ({ store, tenant, input }: OperationContext<{ body: StateChange }, StateAdminPort>) => {
      const { state, params, action = 'setup' } = input.body
      await resetTenant(store, tenant.key)
      if (action === 'teardown') return {}
      if (params?.now === undefined || params.records === undefined) {
        info.logger.warn(`pact provider state "${state}" was not written by the mock: the tenant is its fresh seed`, { state })
        return {}
      }
      if (params.seed !== undefined && JSON.stringify(params.seed) !== JSON.stringify(seed)) {
        info.logger.warn(`pact provider state "${state}" was written under another seed: answers may differ`, { state, seed: params.seed })
      }
      const records = laidOver(await store.exportState(tenant.key), params.records)
      const problems = await inSlices(invariantSteps(records))
      if (Object.keys(problems).length > 0) throw validationFailed(problems)
      await store.importState(tenant.key, records)
      await info.clocks.set(tenant.key, Date.parse(params.now), true)
      return {}
    },
  }
}

/** The seed options a provider state names: those that make the records (docs/behaviour.md §5). */
function seedParamsOf({ seed, demo, subscribers, channelConnections, messages }: SeedSpec): SeedParams {
  return { seed, ...(demo ? { demo } : {}), subscribers, channelConnections, ...(messages === undefined ? {} : { messages }) }
}

/** The value of the operation's first path parameter in `path`: what a call is about. */
function mainParameter(info: PactInfo, operationId: string, path: string): string | undefined {
  const template = info.api.operations.get(operationId)?.pathTemplate.split('/') ?? []
  const at = template.findIndex((segment) => segment.startsWith('{'))
  const value = at === -1 ? undefined : path.split('/')[at]
  if (value === undefined) return undefined
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
