import { http, HttpResponse, type HttpHandler } from 'msw'
import { createState, warmInBackground } from '../app/create-state.ts'
import { serverConfigOf } from '../library/server-options.ts'
import { tenantOf } from '../library/tenant-client.ts'
import type { MockServerOptions, Tenant } from '../library/types.ts'
import { UsageError } from '../options/usage-error.ts'
import { mswDoor } from './msw-door.ts'

/** Where the official SDK sends its calls unless told otherwise. */
export const DEFAULT_BASE_URL = 'https://api.novu.co'

/** startMockServer's options (`port`, `host`, `corsOrigins`, `adminToken` have nothing to act on in process), plus `baseUrl`. */
export interface NovuMockOptions extends MockServerOptions {
  /** Every request under it is the mock's; https://api.novu.co by default. */
  baseUrl?: string
}

export interface NovuMock {
  /** For msw's `setupServer(...handlers)`: one handler, answering every request under `baseUrl`. */
  handlers: HttpHandler[]
  /** The same Tenant as startMockServer's, in process. */
  tenant(apiKey: string): Tenant
  /** Releases what the mock holds (a --db file, a Redis connection). */
  close(): Promise<void>
}

/**
 * The mock as msw handlers: the node server's answers, in process, with no port. A fault that
 * drops the connection is msw's network error; `Prefer: delay` and fault latency wait as over HTTP.
 */
export async function createNovuMock(options: NovuMockOptions = {}): Promise<NovuMock> {
  const { baseUrl = DEFAULT_BASE_URL, ...serverOptions } = options
  const base = baseOf(baseUrl)
  const config = serverConfigOf(serverOptions, 'createNovuMock')
  if (config.proxy) throw new UsageError('createNovuMock: option "proxy" forwards calls to a live service, which only the server does (startMockServer)')
  const state = await createState(config)
  warmInBackground(state.contracts)
  const answer = mswDoor(state, base.pathname)
  const handler = http.all(`${base.origin}${base.pathname}/*`, async ({ request }) => {
    const outcome = await answer(request)
    return outcome === 'drop' ? HttpResponse.error() : outcome
  })
  return { handlers: [handler], tenant: (apiKey) => tenantOf(state.admin.call, apiKey), close: () => state.close() }
}

function baseOf(baseUrl: string): { origin: string; pathname: string } {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new UsageError(`createNovuMock: option "baseUrl" must be an absolute URL, got "${baseUrl}"`)
  }
  return { origin: url.origin, pathname: url.pathname.replace(/\/+$/, '') }
}
