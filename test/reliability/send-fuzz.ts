import type { Contract } from '../../src/contract/load-contract.ts'
import type { FuzzRequest } from './fuzz-cases.ts'

const TIMEOUT_MS = 5000

/** Sends one fuzz request; returns what was wrong with the answer, or undefined when it was fine. */
export async function sendFuzz(url: string, fuzz: FuzzRequest, api: Contract): Promise<string | undefined> {
  let response: Response
  try {
    response = await fetch(`${url}${fuzz.path}`, {
      method: fuzz.method,
      headers: fuzz.headers,
      body: fuzz.method === 'GET' || fuzz.method === 'HEAD' ? undefined : fuzz.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (error) {
    if ((error as Error).name === 'TypeError' && /header|ByteString|Invalid/i.test(String((error as Error).cause ?? (error as Error).message))) return undefined // the client refused to send it
    return `${fuzz.method} ${fuzz.path.slice(0, 80)}: no answer (${(error as Error).name}: ${(error as Error).message})`
  }
  const text = await response.text()
  if (response.status >= 500) return `${fuzz.method} ${fuzz.path.slice(0, 80)}: ${response.status} ${text.slice(0, 200)}`
  if (fuzz.method === 'OPTIONS' || fuzz.method === 'HEAD') return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `${fuzz.method} ${fuzz.path.slice(0, 80)}: ${response.status} with a body that is not JSON: ${text.slice(0, 100)}`
  }
  // fetch resolves dot segments before sending (`/v2/%2e%2e` is `/`): there the landing page answers.
  if (fuzz.method === 'GET' && new URL(`${url}${fuzz.path}`).pathname === '/') return response.status === 200 && (body as { name?: unknown }).name === 'novu-mock' ? undefined : `${fuzz.method} ${fuzz.path.slice(0, 80)}: ${response.status} at / is not the landing page`
  const operation = api.operations.get(fuzz.operationId)!
  // Another method on the path may be another operation of Novu's document, whose answer the mock checked against it on the way out.
  if (fuzz.method !== operation.method && response.status < 400) return undefined
  const validate = response.status === 404 && !operation.responseValidators.has(404) ? api.schemas.get('ErrorDto') : operation.responseValidators.get(response.status) ?? api.schemas.get('ErrorDto')
  if (validate && !validate(body)) return `${fuzz.method} ${fuzz.path.slice(0, 80)}: ${response.status} body off the document: ${JSON.stringify(validate.errors).slice(0, 200)}`
  return undefined
}
