import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MockServerOptions } from 'novu-mock'
import { describe, expect, it } from 'vitest'
import { FLAGS, parseCli, UsageError } from '../../src/cli/parse-cli.ts'
import type { ServerConfig } from '../../src/app/config.ts'
import { serverConfigOf } from '../../src/library/server-options.ts'

/** What `novu-mock start` makes of these arguments, with no environment and no config file. */
function cliConfig(argv: string[]): ServerConfig {
  const command = parseCli(argv, {}, mkdtempSync(join(tmpdir(), 'novu-mock-empty-')))
  if (command.kind !== 'start') throw new Error(`expected start, got ${command.kind}`)
  return command.config
}

function usageError(options: Record<string, unknown>): string {
  try {
    serverConfigOf(options as MockServerOptions)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error('expected a usage error')
}

// Required: the compiler fails this file when an option is missing from it. `redis` excludes `db`: it has a test of its own.
const EVERY_OPTION: Required<Omit<MockServerOptions, 'redis'>> = {
  port: 4321,
  host: '127.0.0.2',
  seed: 7,
  demo: true,
  subscribers: 10,
  connections: 5,
  messages: 30,
  fixtures: 'my-fixtures',
  fixturesMode: 'replace',
  apiKeys: ['key-a', 'key-b'],
  db: 'state.json',
  maxTenants: 3,
  memoryBudget: '64m',
  tenantTtl: '12h',
  journalSize: 4,
  redisWaitReplicas: 2,
  adminToken: 'secret-token',
  rateLimit: '5/2',
  envelope: true,
  proxy: 'http://127.0.0.1:9',
  proxyStrict: true,
  responseValidation: 'warn',
  corsOrigins: ['http://localhost:3000', 'http://localhost:5173'],
  allowedHosts: ['mock.test', '.example.com'],
  logLevel: 'debug',
  clock: '2025-01-01T00:00:00.000Z',
}

const EVERY_FLAG = [
  ...['--port', '4321', '--host', '127.0.0.2', '--seed', '7', '--demo', '--subscribers', '10', '--connections', '5', '--messages', '30'],
  ...['--fixtures', 'my-fixtures', '--fixtures-mode', 'replace', '--api-key', 'key-a', '--api-key', 'key-b', '--db', 'state.json'],
  ...['--max-tenants', '3', '--memory-budget', '64m', '--tenant-ttl', '12h', '--journal-size', '4', '--redis-wait-replicas', '2', '--admin-token', 'secret-token', '--rate-limit', '5/2', '--envelope'],
  ...['--proxy', 'http://127.0.0.1:9', '--proxy-strict', '--response-validation', 'warn'],
  ...['--cors-origins', 'http://localhost:3000,http://localhost:5173', '--allowed-hosts', 'mock.test,.example.com', '--log-level', 'debug', '--clock', '2025-01-01T00:00:00.000Z'],
]

describe('MockServerOptions, read by the CLI’s parser', () => {
  it('has one option per flag of start but --config and --pid-file', () => {
    expect(Object.keys(EVERY_OPTION)).toHaveLength(Object.keys(FLAGS).length - 3)
  })

  it('takes redis as --redis, and never with db', () => {
    const url = 'redis://user:secret@127.0.0.1:6380/2'
    expect(serverConfigOf({ redis: url })).toEqual({ ...cliConfig(['--redis', url]), port: 0, logLevel: 'silent' })
    expect(serverConfigOf({ redis: url }).redis).toBe(url)
    expect(usageError({ redis: url, db: 'state.db' })).toBe('startMockServer: option "redis" and option "db" keep the state in two places: give one of them')
    expect(usageError({ redis: 'http://127.0.0.1:6379' })).toBe('startMockServer: option "redis" must be a redis:// or rediss:// URL')
  })

  it('gives the config the same flags give', () => {
    expect(serverConfigOf(EVERY_OPTION)).toEqual(cliConfig(EVERY_FLAG))
  })

  it('defaults as the CLI does, except port 0 and logLevel silent', () => {
    expect(serverConfigOf({})).toEqual({ ...cliConfig([]), port: 0, logLevel: 'silent' })
    expect(serverConfigOf({ demo: true })).toEqual({ ...cliConfig(['--demo']), port: 0, logLevel: 'silent' })
  })

  it('takes the list options as one text too, as the config file does', () => {
    expect(serverConfigOf({ corsOrigins: 'none' })).toMatchObject({ corsOrigins: 'none' })
    expect(serverConfigOf({ apiKeys: 'key-a,key-b' } as unknown as MockServerOptions)).toMatchObject({ apiKeys: ['key-a', 'key-b'] })
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown option', { prot: 1 }, 'startMockServer: unknown option "prot" (did you mean "port"?)'],
    ['a flag name instead of the option', { 'max-tenants': 2 }, 'startMockServer: unknown option "max-tenants" (did you mean "maxTenants"?)'],
    ['a value of the wrong type', { demo: 'yes' }, 'startMockServer: option "demo" must be true or false, got "yes"'],
    ['a number out of range', { maxTenants: 0 }, 'startMockServer: option "maxTenants" must be a whole number of at least 1, got "0"'],
    ['a malformed rate limit', { rateLimit: 'fast' }, 'startMockServer: option "rateLimit" must look like 100/1 (requests/seconds), got "fast"'],
    ['a value outside the list', { logLevel: 'loud' }, 'startMockServer: option "logLevel" must be one of debug, info, warn, error, silent, got "loud"'],
  ])('refuses %s, naming the option', (_case, options, message) => {
    expect(usageError(options)).toBe(message)
  })
})
