import { applyFaults, type FaultOutcome } from '../../policies/faults/apply-faults.ts'
import type { Call, Step } from './call.ts'

/**
 * A keyed call (docs/behaviour.md §4): the replay of its key's answer, or (opening the key's
 * record, which its answer closes) nothing. A call without a key passes at once.
 */
export const replayKeyed: Step = (call) => (call.idempotencyKey === undefined || call.tenantKey === undefined ? undefined : replayOrRecord(call, call.tenantKey, call.idempotencyKey))

async function replayOrRecord(call: Call, tenantKey: string, key: string): Promise<void> {
  const { method, path } = call.line
  const body = call.raw && asBuffer(call.raw)
  const outcome = await call.run.policies!.idempotency.begin(tenantKey, key, { method, path, body }, call.now().getTime())
  if (outcome.kind === 'replay') call.answer = { status: outcome.status, body: outcome.body, headers: { 'Idempotency-Replay': 'true' } }
  else call.recording = outcome
}

/** The `Prefer` header and the fault rules (docs/behaviour.md §6): the answer they force, if any. */
export const applyFaultRules: Step = (call) => {
  const { tenantKey } = call
  if (tenantKey === undefined) return
  const { operation, policies } = call.run
  const { faults, delayed } = policies!
  const outcome = applyFaults({
    operation,
    faults,
    delayed,
    tenantKey,
    method: call.line.method,
    path: call.line.path,
    originalUrl: call.line.url,
    body: call.body,
    prefer: call.request.header('prefer'),
    idempotencyKey: call.idempotencyKey,
    rateLimitReset: call.headers?.['RateLimit-Reset'],
    now: call.now,
  })
  // In memory, a call neither touches is answered at once: no promise, no microtask.
  return outcome instanceof Promise ? outcome.then((found) => applyOutcome(call, found)) : applyOutcome(call, outcome)
}

function applyOutcome(call: Call, outcome: FaultOutcome | undefined): void {
  if (outcome === undefined) return
  // Rare (a Prefer header, a fault rule): a copy here costs the usual call nothing.
  if (outcome.applied !== undefined) call.headers = { ...call.headers, 'Preference-Applied': outcome.applied }
  // A dropped connection answers nothing: the key's record is not kept.
  if (outcome.answer === 'drop' && call.recording) call.run.policies!.idempotency.abandon(call.recording)
  call.answer = outcome.answer
}

/** The same bytes as a Buffer, not copied: the idempotency fingerprint hashes a Buffer. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
