import { apiKeyOrNone } from '../authenticate.ts'
import { readBody, readJsonFirst, type SentBody } from '../body/body-reading.ts'
import type { Call, Step } from './call.ts'

/**
 * A JSON body, read before anything else (docs/behaviour.md §1.3); a refusal is journaled for the
 * tenant the call names, if it names one.
 */
export const readJsonBodyFirst: Step = (call) => (call.request.hasBody ? readFirst(call) : undefined)

async function readFirst(call: Call): Promise<void> {
  try {
    call.readFirst = await readJsonFirst(call.request)
  } catch (error) {
    const { policies, needsKey, state } = call.run
    if (policies && needsKey) call.tenantKey = apiKeyOrNone(call.request.header('authorization'), state.apiKeys)
    throw error
  }
}

/** The API's body, of any type it reads (a form, multipart, another type read as empty): the JSON one is read already. */
export const readBodyOfAnyType: Step = (call) => readSent(call, false)

/** The control plane's body: JSON only, any other type a 415. */
export const readJsonBody: Step = (call) => readSent(call, true)

function readSent(call: Call, jsonOnly: boolean): void | Promise<void> {
  const { operation } = call.run
  // A JSON body sent to an operation that takes none was still read, and refused if it had to be.
  if (!operation.takesBody || !call.request.hasBody) return
  if (call.readFirst !== undefined) return keep(call, call.readFirst)
  return readBody(call.request, jsonOnly, operation.multipart).then((sent) => keep(call, sent))
}

function keep(call: Call, sent: SentBody | undefined): void {
  if (sent === undefined) return
  call.body = sent.value
  call.raw = sent.raw
  call.ignoredType = sent.ignoredType
  call.readAsForm = sent.readAsForm
}
