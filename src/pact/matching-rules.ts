import type { StateRecords } from './state-name.ts'

/** Pact V4's matching rules of one part of an interaction, by JSONPath. */
export type MatchingRules = Record<string, { combine: 'AND'; matchers: Array<{ match: 'type' } | { match: 'regex'; regex: string }> }>

/** An instant as the mock writes one (toISOString). */
export const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$'
const TIMESTAMP_PATTERN = new RegExp(TIMESTAMP)

/** The tenant's own ids: the verifier's key has others. */
const TENANT_ID_FIELDS: ReadonlySet<string> = new Set(['_organizationId', '_environmentId'])

export interface RuleContext {
  tenantIds: { organizationId: string; environmentId: string }
  frozen: boolean
  records: StateRecords
}

/**
 * What may differ on the verifier's side, by path in the answer's body (docs/behaviour.md §9): the
 * tenant's own ids by type; under a running clock, timestamps by regex and ids the call made (not
 * one of its state's records) by type.
 */
export function bodyRules(body: unknown, context: RuleContext): MatchingRules {
  const rules: MatchingRules = {}
  const known = new Set(Object.values(context.records as Record<string, Array<{ _id: string }>>).flatMap((records) => records.map((record) => record._id)))
  const tenantIds = new Set([context.tenantIds.organizationId, context.tenantIds.environmentId])
  const visit = (value: unknown, path: string, key: string | undefined): void => {
    if (Array.isArray(value)) return value.forEach((item, at) => visit(item, `${path}[${at}]`, undefined))
    if (value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) visit(item, `${path}${member(name)}`, name)
      return
    }
    if (typeof value !== 'string' || key === undefined) return
    if (TENANT_ID_FIELDS.has(key) && tenantIds.has(value)) rules[path] = { combine: 'AND', matchers: [{ match: 'type' }] }
    else if (!context.frozen && TIMESTAMP_PATTERN.test(value)) rules[path] = { combine: 'AND', matchers: [{ match: 'regex', regex: TIMESTAMP }] }
    else if (!context.frozen && key === '_id' && !known.has(value)) rules[path] = { combine: 'AND', matchers: [{ match: 'type' }] }
  }
  visit(body, '$', undefined)
  return rules
}

/** A member of a JSONPath: `.name`, or `['name']` for a name that is not an identifier. */
const member = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`)
