import { ApiError } from '../../answer/api-error.ts'
import { SlicedJson } from '../../answer/answer.ts'
import { journalName } from '../../contract/novu/operation-names.ts'
import { isDeepSubset } from '../../lib/json/deep-subset.ts'
import type { JournalPort } from '../../journal/journal-port.ts'
import type { JournalFilter } from '../../journal/request-journal.ts'
import type { OperationContext } from '../../resources/operation-context.ts'

type AdminSchemas = import('../../contract/generated/admin-types.ts').components['schemas']

/** Calls shown in a failed verification's `ctx`, the most recent. */
const SEEN_SHOWN = 20

export function journalHandlers(journal: JournalPort) {
  return {
    // Checked and written in slices, as a whole state is: up to a thousand calls of 32 KiB each.
    listRequests: async ({ tenant, input }: OperationContext<{ query: JournalFilter }>) =>
      new SlicedJson({ requests: await journal.list(tenant.key, withJournalName(input.query)) }),

    clearRequests: async ({ tenant }: OperationContext<unknown>) => ({ cleared: await journal.clear(tenant.key) }),

    verifyRequests: async ({ tenant, input }: OperationContext<{ body: AdminSchemas['VerifyRequest'] }>) => {
      const { operationId, count, atLeast, bodyMatches, status } = input.body
      const calls = await journal.list(tenant.key, { operationId: journalName(operationId) })
      const answered = statusTest(status)
      const matched = calls.filter((call) => answered(call.status) && (bodyMatches === undefined || isDeepSubset(bodyMatches, call.requestBody)))
      const holds = count !== undefined ? matched.length === count : matched.length >= (atLeast ?? 1)
      if (holds) return { matched: matched.length }
      const expected = count !== undefined ? `exactly ${count}` : `at least ${atLeast ?? 1}`
      const withBody = bodyMatches === undefined ? '' : ` with a body containing ${JSON.stringify(bodyMatches)}`
      const withStatus = status === undefined ? '' : ` answered ${status}`
      throw new ApiError(417, 'EXPECTATION_FAILED', `Expected ${expected} call(s) of ${operationId}${withBody}${withStatus}, matched ${matched.length}`, {
        ctx: { matched: matched.length, expected: input.body, seen: calls.slice(-SEEN_SHOWN) },
      })
    },
  }
}

/** A filter naming an operation by any of its names (the SDK's method, Novu's operationId) reads the name the journal keeps. */
function withJournalName(filter: JournalFilter): JournalFilter {
  return filter.operationId === undefined ? filter : { ...filter, operationId: journalName(filter.operationId) }
}

/** The `status` filter of a verification: a status (`201`), a class (`"2xx"`), or none (every call counts). */
function statusTest(status: number | string | undefined): (answered: number) => boolean {
  if (status === undefined) return () => true
  if (typeof status === 'number') return (answered) => answered === status
  const hundreds = Number(status[0])
  return (answered) => Math.floor(answered / 100) === hundreds
}
