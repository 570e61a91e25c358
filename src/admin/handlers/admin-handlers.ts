import { validationFailed } from '../../answer/api-error.ts'
import { AnsweredOtherwise, SlicedJson } from '../../answer/answer.ts'
import { listChannelConnections } from '../../resources/connections/list-connections.ts'
import type { AdminAccess } from '../admin-guard.ts'
import type { Handler, OperationContext } from '../../resources/operation-context.ts'
import type { TenantState } from '../../store/records.ts'
import type { LifecyclePort, StateAdminPort } from '../../store/store.ts'
import type { JournalPort } from '../../journal/journal-port.ts'
import type { Contract } from '../../contract/load-contract.ts'
import type { FaultRules } from '../../policies/faults/fault-rules.ts'
import type { EVENT_STREAM_OPERATION } from '../event-stream.ts'
import type { TenantClocks } from '../../policies/clock/tenant-clocks.ts'
import { clockHandlers } from './clock-handlers.ts'
import { pactHandlers } from './pact-handlers.ts'
import type { Logger } from '../../log/logger.ts'
import { faultHandlers } from './fault-handlers.ts'
import { journalHandlers } from './journal-handlers.ts'
import { snapshotHandlers } from './snapshot-handlers.ts'
import { tenantHandlers, type TenantDefaults } from './tenant-handlers.ts'
import { invariantSteps } from '../../seed/state-invariants.ts'
import { inSlices } from '../../lib/slices.ts'

type AdminOperations = import('../../contract/generated/admin-types.ts').operations

export interface AdminInfo {
  version: string
  startedAt: number
  journal: JournalPort
  tenants: TenantDefaults
  faults: FaultRules
  /** The API's contract, against which fault rules are checked. */
  api: Contract
  /** Novu's document: fault rules may name any of its operations. */
  novu: Contract
  clocks: TenantClocks
  /** Clears the tenant's fault rules, journal, idempotency records and rate-limit bucket (a reset, docs/behaviour.md §3). */
  clean(tenant: string): Promise<void>
  logger: Logger
}

/** The control plane's JSON handlers, keyed by the operationIds of spec/admin.yaml (the stream has its own route). */
export function adminHandlers(info: AdminInfo, adminAccess: AdminAccess): Record<Exclude<keyof AdminOperations, typeof EVENT_STREAM_OPERATION>, Handler> {
  /** A clean tenant: its records first, so a reset the store refuses (503) leaves the clock and the policies as they were too. */
  const resetTenant = async (store: StateAdminPort, tenant: string) => {
    await store.reset(tenant).then(() => info.clocks.reset(tenant))
    await info.clean(tenant)
  }
  return {
    ...pactHandlers(info, resetTenant),
    ...snapshotHandlers,
    ...journalHandlers(info.journal),
    ...tenantHandlers(info.tenants),
    ...faultHandlers(info.faults, info.api, info.novu),
    ...clockHandlers(info.clocks),
    getHealth: async ({ store }: OperationContext<unknown, LifecyclePort>) => {
      const { kind, reachable, stored, state } = await store.health()
      const health = {
        status: reachable ? 'ok' : 'unavailable',
        store: kind,
        version: info.version,
        uptimeSeconds: (Date.now() - info.startedAt) / 1000,
        adminAccess,
        ...(stored === undefined ? {} : { storedTenants: stored }),
        ...(state === undefined ? {} : { storeState: state }),
      }
      if (reachable) return health
      throw new AnsweredOtherwise({ status: 503, body: health, headers: { 'Retry-After': '1' } })
    },

    // The API's own handler: a page of the tenant's connections, read without calling the API.
    pageChannelConnections: listChannelConnections,

    // Checked and written in slices: a whole state leaves other calls answered meanwhile (docs/behaviour.md §6).
    getState: async ({ store, tenant }: OperationContext<unknown, StateAdminPort>) => new SlicedJson(await store.exportState(tenant.key)),

    putState: async ({ store, tenant, input }: OperationContext<{ body: TenantState }, StateAdminPort>) => {
      const state = input.body
      // In slices, as its reading and its records' check: a whole state leaves other calls answered (docs/behaviour.md §6).
      const problems = await inSlices(invariantSteps(state))
      if (Object.keys(problems).length > 0) throw validationFailed(problems)
      await store.importState(tenant.key, state)
      return {
        subscribers: state.subscribers.length,
        integrations: state.integrations.length,
        channelConnections: state.channelConnections.length,
        messages: state.messages.length,
      }
    },

    resetState: async ({ store, tenant, input }: OperationContext<{ query: { all?: boolean } }, StateAdminPort>) => {
      // Listed before the reset: resetting all releases them.
      const tenants = input.query.all ? (await store.tenants()).map(({ key }) => key) : [tenant.key]
      if (!input.query.all) await resetTenant(store, tenant.key)
      else {
        // The records first: a reset the store refuses (503) leaves the clock and the policies as they were too.
        await store.resetAll().then(() => info.clocks.resetAll())
        await Promise.all(tenants.map((key) => info.clean(key)))
      }
      return { scope: input.query.all ? 'all' : 'tenant' }
    },
  }
}
