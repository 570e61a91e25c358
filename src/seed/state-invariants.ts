import type { FieldErrors } from '../answer/api-error.ts'
import type { TenantState } from '../store/records.ts'

/**
 * The rules a whole state must keep beyond each record's schema: one primary per channel (a
 * tenant is one environment), the primary is active, and no id twice. Problems are keyed by record.
 */
export function invariantProblems(state: TenantState): FieldErrors {
  const problems: FieldErrors = Object.create(null)
  const report = (field: string, message: string) => (problems[field] ??= { messages: [] }).messages.push(message)
  const duplicates = (name: keyof TenantState, ids: readonly (string | undefined)[], label: string) => {
    const seen = new Set<string>()
    ids.forEach((id, index) => {
      if (id === undefined) return
      if (seen.has(id)) report(`${name}.${index}`, `duplicate ${label} ${id}`)
      seen.add(id)
    })
  }
  duplicates('subscribers', state.subscribers.map((s) => s.subscriberId), 'subscriberId')
  duplicates('subscribers', state.subscribers.map((s) => s._id), '_id')
  duplicates('integrations', state.integrations.map((i) => i._id), '_id')
  duplicates('channelConnections', state.channelConnections.map((c) => c._id), '_id')
  duplicates('messages', state.messages.map((m) => m._id), '_id')
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
