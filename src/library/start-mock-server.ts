import { createMockServer } from '../app/create-mock-server.ts'
import { serverConfigOf } from './server-options.ts'
import { tenantOf } from './tenant-client.ts'
import type { MockServer, MockServerOptions } from './types.ts'

/**
 * Starts a mock as `novu-mock start` would with these flags (camelCased), on any free port of
 * 127.0.0.1 and silent unless told otherwise, and resolves once it listens.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const server = await createMockServer(serverConfigOf(options))
  const { admin } = server.app.locals
  return {
    url: server.url,
    tenant: (apiKey) => tenantOf(admin, apiKey),
    close: () => server.close(),
  }
}
