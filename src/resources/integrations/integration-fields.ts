import { ApiError } from '../../answer/api-error.ts'
import type { StoredIntegration } from '../../store/records.ts'

type Conditions = NonNullable<StoredIntegration['conditions']>
type Configurations = NonNullable<StoredIntegration['configurations']>

/**
 * The conditions as stored: the fields of Novu's StepFilterDto that the records hold. The document
 * has checked their types; Novu's DTO and the records name the same fields.
 */
export function storedConditions(sent: readonly Record<string, unknown>[]): Conditions {
  return sent.map((condition) => {
    const kept: Record<string, unknown> = {}
    for (const field of ['isNegated', 'type', 'value'] as const) if (condition[field] !== undefined) kept[field] = condition[field]
    if (Array.isArray(condition.children)) {
      kept.children = (condition.children as Record<string, unknown>[]).map(({ field, value, operator, on }) => ({ field, value, operator, on }))
    }
    return kept as Conditions[number]
  })
}

/** The configurations the records hold; others are accepted and dropped. */
export function storedConfigurations(sent: Record<string, unknown>): Configurations {
  const kept: Configurations = {}
  if (typeof sent.inboundWebhookEnabled === 'boolean') kept.inboundWebhookEnabled = sent.inboundWebhookEnabled
  if (typeof sent.inboundWebhookSigningKey === 'string') kept.inboundWebhookSigningKey = sent.inboundWebhookSigningKey
  return kept
}

/** `Mailgun` → `mailgun`, `Africa's Talking` → `africa-s-talking`: the live service's slugify of a name. */
export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** An identifier is one integration's (not deleted) in the tenant: another is a 409, in the live service's words. */
export function refuseTakenIdentifier(integrations: Iterable<StoredIntegration>, identifier: string): void {
  for (const integration of integrations) {
    if (!integration.deleted && integration.identifier === identifier) throw new ApiError(409, 'INTEGRATION_IDENTIFIER_TAKEN', 'Integration with identifier already exists')
  }
}
