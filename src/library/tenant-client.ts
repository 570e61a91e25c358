import type { AdminCall, AdminInput } from '../admin/admin-calls.ts'
import { ApiError } from '../answer/api-error.ts'
import type { Expectation, JournalEntry } from './document-types.ts'
import type { Tenant } from './types.ts'
import { VerificationError } from './verification-error.ts'

/** The Tenant of `apiKey`: each method one admin operation, run in process by `call`. */
export function tenantOf(call: AdminCall, apiKey: string): Tenant {
  // `method` names the Tenant method in the error, since that is what the caller wrote.
  const run = <K extends Parameters<AdminCall>[0]>(method: keyof Tenant, operationId: K, input?: AdminInput) =>
    call(operationId, apiKey, input).catch((error: unknown) => Promise.reject(refusal(method, error)))
  return {
    apiKey,
    state: () => run('state', 'getState'),
    setState: async (state) => void (await run('setState', 'putState', { body: state })),
    reset: async () => void (await run('reset', 'resetState')),
    requests: async (filter = {}) => (await run('requests', 'listRequests', { query: filter })).requests,
    clearRequests: async () => void (await run('clearRequests', 'clearRequests')),
    verify: async (expectation) => void (await run('verify', 'verifyRequests', { body: expectation })),
    snapshot: (name) => run('snapshot', 'saveSnapshot', { body: { name } }),
    restore: (name) => run('restore', 'restoreSnapshot', { path: { name } }),
    fault: (rule) => run('fault', 'addFault', { body: rule }),
    removeFault: async (id) => void (await run('removeFault', 'removeFault', { path: { id } })),
    clearFaults: async () => void (await run('clearFaults', 'clearFaults')),
    pact: (options) => run('pact', 'exportPact', { query: { ...options } }),
    clock: {
      get: () => run('clock', 'getClock'),
      set: (now, { frozen } = {}) => run('clock', 'setClock', { body: { now: now instanceof Date ? dateText(now) : now, frozen } }),
      advance: (ms) => run('clock', 'advanceClock', { body: { ms } }),
      useRealTime: () => run('clock', 'useRealTime'),
    },
  }
}

/** The error a method rejects with: what the route would have answered, as one readable line. */
function refusal(method: string, error: unknown): unknown {
  if (!(error instanceof ApiError)) return error
  if (error.status === 417) {
    const ctx = error.details.ctx as { expected: Expectation; matched: number; seen: JournalEntry[] }
    return new VerificationError(error.message, { expectation: ctx.expected, matched: ctx.matched, seen: ctx.seen })
  }
  const fields = Object.entries(error.details.errors ?? {}).map(([field, { messages }]) => `${field}: ${messages.join('; ')}`)
  return new Error(`${method}: ${error.status} ${error.message}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`, { cause: error })
}

/** A Date as the route takes it; an invalid one as its own text, which the route refuses (a 422) rather than this throwing. */
const dateText = (date: Date): string => (Number.isNaN(date.getTime()) ? String(date) : date.toISOString())
