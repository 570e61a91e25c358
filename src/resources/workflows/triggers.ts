import { randomBytes } from 'node:crypto'
import { invalid, RuleBroken, unprocessable } from '../rule-broken.ts'
import type { Store, TenantTransaction } from '../../store/store.ts'
import type { OperationContext } from '../operation-context.ts'
import { upsertSubscriber, type SubscriberFields } from '../subscribers/subscriber-fields.ts'

/* The events' operations (docs/behaviour.md §11): a trigger's recipients and actor kept before the answer; no workflow runs. */

type Recipient = string | (SubscriberFields & { channels?: unknown }) | { type: 'Topic'; topicKey: string }

export interface TriggerEvent {
  name: string
  to: Recipient | Recipient[]
  transactionId?: string
  actor?: string | (SubscriberFields & { channels?: unknown })
}

interface TriggerAnswer {
  acknowledged: true
  status: 'processed' | 'trigger_not_active' | 'error'
  transactionId?: string
  error?: string[]
}

/** POST /v1/events/trigger: 201, each recipient and the actor created or updated before the answer. */
export async function trigger({ store, tenant, input, now }: OperationContext<{ body: TriggerEvent }, Store>): Promise<TriggerAnswer> {
  return store.transact(tenant.key, (tx) => triggered(tx, input.body, now()))
}

/** The live service's bounds on one bulk call (its DTO's ArrayMinSize and ArrayMaxSize). */
const BULK_MAX = 100

/** POST /v1/events/trigger/bulk: one answer per event, in order; an event refused is answered `error`, the others kept. */
export async function triggerBulk({ store, tenant, input, now }: OperationContext<{ body: { events: TriggerEvent[] } }, Store>): Promise<TriggerAnswer[]> {
  const { events } = input.body
  if (events.length === 0) throw invalid(['events must contain at least 1 elements'])
  if (events.length > BULK_MAX) throw invalid([`events must contain no more than ${BULK_MAX} elements`])
  return store.transact(tenant.key, (tx) => events.map((event) => triggeredOrError(tx, event, now())))
}

function triggeredOrError(tx: TenantTransaction, event: TriggerEvent, at: Date): TriggerAnswer {
  try {
    return triggered(tx, event, at)
  } catch (error) {
    // A refused event changed nothing: its checks come before its writes.
    if (error instanceof RuleBroken) return { acknowledged: true, status: 'error', error: [error.message] }
    throw error
  }
}

/** DELETE /v1/events/trigger/{transactionId}: `false`, as the service answers when nothing delayed was cancelled (the mock delays nothing). */
export async function cancel(): Promise<boolean> {
  return false
}

/**
 * A tenant with workflows knows the name or refuses it; one without accepts every name (the mock
 * cannot know a user's workflows). An inactive workflow's trigger changes nothing.
 */
function triggered(tx: TenantTransaction, event: TriggerEvent, at: Date): TriggerAnswer {
  const transactionId = event.transactionId || transactionIdAt(at)
  if (tx.hasWorkflows()) {
    const workflow = tx.workflow(event.name)
    if (!workflow) throw unprocessable('WORKFLOW_NOT_FOUND', 'workflow_not_found')
    if (!workflow.active) return { acknowledged: true, status: 'trigger_not_active', transactionId }
  }
  for (const fields of subscribersOf(event)) upsertSubscriber(tx, fields, at, false)
  return { acknowledged: true, status: 'processed', transactionId }
}

/** The recipients (a topic is acknowledged without effect) and the actor given as an object. */
function subscribersOf(event: TriggerEvent): SubscriberFields[] {
  const recipients = Array.isArray(event.to) ? event.to : [event.to]
  const found: SubscriberFields[] = []
  for (const recipient of recipients) {
    if (typeof recipient === 'string') found.push({ subscriberId: recipient })
    else if ('subscriberId' in recipient) found.push(fieldsOf(recipient))
  }
  if (event.actor !== undefined && typeof event.actor === 'object') found.push(fieldsOf(event.actor))
  return found
}

/** A payload's subscriber fields; its `channels` are not kept (credentials come through their own operations). */
function fieldsOf({ channels: _channels, ...fields }: SubscriberFields & { channels?: unknown }): SubscriberFields {
  return fields
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/** `txn_`, the clock's Unix seconds in 8 hex digits, then 12 of [0-9a-z], as the live service makes one. */
function transactionIdAt(at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000).toString(16).padStart(8, '0').slice(-8)
  const tail = [...randomBytes(12)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('')
  return `txn_${seconds}${tail}`
}
