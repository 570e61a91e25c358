import type { FieldErrors } from '../answer/api-error.ts'
import { toEnd, type Steps } from '../lib/slices.ts'
import type { TenantState } from '../store/records.ts'

/**
 * The rules a whole state must keep beyond each record's schema: one primary per channel (a
 * tenant is one environment), the primary is active, and no id twice. Problems are keyed by record.
 */
export const invariantProblems = (state: TenantState): FieldErrors => toEnd(invariantSteps(state))

/** The same, a step per record: a whole state of 100,000s of records is checked in slices (docs/behaviour.md §6). */
export function* invariantSteps(state: TenantState): Steps<FieldErrors> {
  const problems: FieldErrors = Object.create(null)
  const report = (field: string, message: string) => (problems[field] ??= { messages: [] }).messages.push(message)
  function* duplicates<T>(name: keyof TenantState, records: readonly T[], idOf: (record: T) => string | undefined, label: string): Steps<void> {
    const seen = new Set<string>()
    for (let index = 0; index < records.length; index++) {
      const id = idOf(records[index]!)
      if (id !== undefined && seen.has(id)) report(`${name}.${index}`, `duplicate ${label} ${id}`)
      if (id !== undefined) seen.add(id)
      yield
    }
  }
  yield* duplicates('subscribers', state.subscribers, (s) => s.subscriberId, 'subscriberId')
  yield* duplicates('subscribers', state.subscribers, (s) => s._id, '_id')
  yield* duplicates('integrations', state.integrations, (i) => i._id, '_id')
  yield* duplicates('channelConnections', state.channelConnections, (c) => c._id, '_id')
  yield* duplicates('messages', state.messages, (m) => m._id, '_id')
  yield* duplicates('workflows', state.workflows ?? [], (w) => w.workflowId, 'workflowId')
  const primaryOf = new Map<string, string>()
  state.integrations.forEach((integration, index) => {
    if (!integration.primary) return
    if (!integration.active) report(`integrations.${index}`, `primary integration ${integration._id} must be active`)
    const other = primaryOf.get(integration.channel)
    if (other) report(`integrations.${index}`, `channel ${integration.channel} already has primary integration ${other}`)
    primaryOf.set(integration.channel, integration._id)
  })
  return problems
}
