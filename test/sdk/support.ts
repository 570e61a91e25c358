import { HTTPClient, Novu } from '@novu/api'
import { NovuError, ResponseValidationError } from '@novu/api/models/errors/index.js'
import type { ChannelConnectionsControllerListChannelConnectionsRequest as ListRequest } from '@novu/api/models/operations/index.js'
import type { ListChannelConnectionsResponseDto as Page } from '@novu/api/models/components/index.js'
import { expect } from 'vitest'

export interface SentRequest {
  method: string
  url: URL
  idempotencyKey: string | null
}

/** An SDK client on a fresh secret key (so a fresh tenant), recording what goes over the wire. */
export interface SdkClient {
  novu: Novu
  key: string
  auth: { Authorization: string }
  sent: SentRequest[]
  /** Raw response bodies, before the SDK's own hook unwraps `{"data": …}`. */
  received: string[]
}

export function sdkClient(serverURL: string, key = `sdk-${crypto.randomUUID()}`): SdkClient {
  const sent: SentRequest[] = []
  const received: string[] = []
  const httpClient = new HTTPClient()
  httpClient.addHook('beforeRequest', (req) => {
    sent.push({ method: req.method, url: new URL(req.url), idempotencyKey: req.headers.get('idempotency-key') })
  })
  httpClient.addHook('response', async (res) => {
    received.push(await res.clone().text())
  })
  // Without `strategy: 'none'` the SDK retries 408/409/429/5xx for up to an hour.
  const novu = new Novu({ serverURL, secretKey: key, retryConfig: { strategy: 'none' }, httpClient })
  return { novu, key, auth: { Authorization: `ApiKey ${key}` }, sent, received }
}

/** The last request the client sent; fails the test when it sent none. */
export function lastSent(client: SdkClient): SentRequest {
  const last = client.sent.at(-1)
  expect(last, 'a request went over the wire').toBeDefined()
  return last!
}

type ErrorClass<T> = abstract new (...args: never[]) => T

/**
 * Awaits a call that must fail with the SDK's own error class for `status`: never a
 * ResponseValidationError, never the matcher's "Unexpected Status or Content-Type" fallback.
 */
export async function sdkError<T extends NovuError>(call: Promise<unknown>, type: ErrorClass<T>, status: number): Promise<T> {
  const outcome = await call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )
  expect(outcome.ok, `expected ${type.name} ${status}, got a success`).toBe(false)
  const error = (outcome as { error: unknown }).error
  expect(error).not.toBeInstanceOf(ResponseValidationError)
  expect(error, String(error)).toBeInstanceOf(type)
  expect((error as Error).message).not.toContain('Unexpected Status or Content-Type')
  expect((error as T).statusCode).toBe(status)
  return error as T
}

/** Adds a fault rule for this client's tenant through the control plane (spec/admin.yaml). */
export async function addFault(serverURL: string, client: SdkClient, rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${serverURL}/__admin/faults`, {
    method: 'POST',
    headers: { ...client.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(rule),
  })
  expect(res.status, await res.clone().text()).toBe(201)
}

/** Follows `next` (or `previous` with `before`) from a first page until it is null. */
export async function walk(
  novu: Novu,
  request: ListRequest,
  direction: 'after' | 'before' = 'after',
): Promise<{ pages: Page[]; identifiers: string[] }> {
  const pages: Page[] = []
  let page = (await novu.channelConnections.list(request)).result
  pages.push(page)
  for (;;) {
    const cursor = direction === 'after' ? page.next : page.previous
    if (cursor === null) break
    expect(pages.length, 'the walk ends').toBeLessThan(200)
    page = (await novu.channelConnections.list({ ...request, [direction]: cursor })).result
    pages.push(page)
  }
  const ordered = direction === 'after' ? pages : [...pages].reverse()
  return { pages, identifiers: ordered.flatMap((p) => p.data.map((c) => c.identifier)) }
}
