import type { AppOptions } from '../../src/app/config.ts'
import { createMockServer, type MockServer } from '../../src/app/create-mock-server.ts'

export const API_KEY = 'test-key'
export const AUTH = { Authorization: `ApiKey ${API_KEY}` }

/** A fresh, seeded, silent mock on 127.0.0.1 and a free port. */
export function startTestServer(options: AppOptions = {}): Promise<MockServer> {
  return createMockServer({ logLevel: 'silent', host: '127.0.0.1', port: 0, ...options })
}

/** Headers of a fresh tenant, so a test sees the seed and nothing another test wrote. */
export function freshTenant(): { Authorization: string } {
  return { Authorization: `ApiKey test-${crypto.randomUUID()}` }
}
