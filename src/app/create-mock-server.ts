import { once, setMaxListeners } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createGuardedServer } from '../http/client-errors.ts'
import { checkingHost, hostPolicy } from '../http/host-check.ts'
import { DEFAULT_CONFIG, type AppOptions } from './config.ts'
import { createApp, type MockApp } from './create-app.ts'
import { loadContracts, warmInBackground } from './create-state.ts'

const CLOSE_GRACE_MS = 1000

export interface MockServer {
  readonly url: string
  readonly port: number
  readonly app: MockApp
  close(): Promise<void>
}

/** createApp plus listen: port 0 (any free port) and 127.0.0.1 unless told otherwise. */
export async function createMockServer(options: AppOptions = {}): Promise<MockServer> {
  const host = options.host ?? DEFAULT_CONFIG.host
  const shutdown = new AbortController()
  // One listener per open event stream, and the journal allows many more than node's default 10.
  setMaxListeners(0, shutdown.signal)
  const app = await createApp({ ...options, host, shutdown: shutdown.signal })
  // The Host check comes first of all, and only here: an in-process use of the engine never sees it.
  const server = createGuardedServer(checkingHost(app, hostPolicy(host, app.locals.config.allowedHosts)), options).listen(options.port ?? 0, host)
  await once(server, 'listening')
  warmInBackground(await loadContracts())
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    app,
    // Answers in flight finish (each is stored before it is sent); idle keep-alives and event streams go at once.
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        shutdown.abort()
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
      }).finally(() => app.close()),
  }
}
