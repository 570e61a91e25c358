import { getHeapStatistics } from 'node:v8'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FLAGS, helpText, parseCli, UsageError } from '../../src/cli/parse-cli.ts'
import type { ServerConfig } from '../../src/app/config.ts'

/** A fresh directory holding novu-mock.config.json with `content` (written as is when a string). */
function dirWithConfig(content: unknown, name = 'novu-mock.config.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-config-'))
  writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  return dir
}
const emptyDir = () => mkdtempSync(join(tmpdir(), 'novu-mock-empty-'))

function startConfig(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = emptyDir()): ServerConfig {
  const command = parseCli(argv, env, cwd)
  if (command.kind !== 'start') throw new Error(`expected start, got ${command.kind}`)
  return command.config
}

const usageError = (argv: string[], env: NodeJS.ProcessEnv = {}, cwd = emptyDir()): string => {
  try {
    parseCli(argv, env, cwd)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error('expected a usage error')
}

describe('options: flag > env > config file > default', () => {
  it('takes each option from the first source that sets it', () => {
    const cwd = dirWithConfig({ subscribers: 5, connections: 4, messages: 20, seed: 3, 'api-key': ['a', 'b'], envelope: true })
    const config = startConfig(['--subscribers', '9'], { NOVU_MOCK_SUBSCRIBERS: '8', NOVU_MOCK_CONNECTIONS: '6' }, cwd)
    expect(config.volumes).toEqual({ subscribers: 9, channelConnections: 6, messages: 20 })
    expect(config.seed).toBe(3)
    expect(config.apiKeys).toEqual(['a', 'b'])
    expect(config.envelope).toBe(true)
    expect(config.port).toBe(4010) // the default, set nowhere
  })

  it('reads the file --config names, and NOVU_MOCK_CONFIG, instead of the current directory’s', () => {
    const cwd = dirWithConfig({ seed: 3 })
    writeFileSync(join(cwd, 'other.json'), JSON.stringify({ seed: 11 }))
    expect(startConfig(['--config', 'other.json'], {}, cwd).seed).toBe(11)
    expect(startConfig([], { NOVU_MOCK_CONFIG: join(cwd, 'other.json') }, cwd).seed).toBe(11)
    expect(usageError(['--config', 'missing.json'], {}, cwd)).toMatch(/cannot read the config file .*missing\.json \(ENOENT\)/)
  })

  it('gives every flag a NOVU_MOCK_ variable; PORT and HOST still work when theirs is unset', () => {
    for (const flag of Object.values(FLAGS)) expect(flag.env).toMatch(/^NOVU_MOCK_[A-Z_]+$/)
    expect(startConfig([], { NOVU_MOCK_PORT: '5001', PORT: '5002', NOVU_MOCK_HOST: '0.0.0.0', HOST: '::1' })).toMatchObject({ port: 5001, host: '0.0.0.0' })
    expect(startConfig([], { PORT: '5002', HOST: '::1' })).toMatchObject({ port: 5002, host: '::1' })
    expect(startConfig([], { NOVU_MOCK_CORS_ORIGINS: 'http://localhost:3000, https://app.example.com/' }).corsOrigins).toEqual(['http://localhost:3000', 'https://app.example.com'])
    expect(startConfig([], { NOVU_MOCK_CORS_ORIGINS: 'none' }).corsOrigins).toBe('none')
    expect(startConfig([]).corsOrigins).toBe('*')
    expect(startConfig(['--cors-origins', 'http://a.test:8080'], { NOVU_MOCK_CORS_ORIGINS: 'none' }).corsOrigins).toEqual(['http://a.test:8080'])
    expect(startConfig([], {}, dirWithConfig({ 'cors-origins': ['http://a.test', 'http://b.test'] })).corsOrigins).toEqual(['http://a.test', 'http://b.test'])
    expect(usageError(['--cors-origins', ''])).toMatch(/--cors-origins must be/)
    expect(startConfig([], { NOVU_MOCK_ALLOWED_HOSTS: 'mock.test, .example.com' }).allowedHosts).toEqual(['mock.test', '.example.com'])
    expect(startConfig(['--allowed-hosts', 'all']).allowedHosts).toBe('all')
    expect(startConfig([], {}, dirWithConfig({ 'allowed-hosts': ['a.test'] })).allowedHosts).toEqual(['a.test'])
    expect(startConfig([]).allowedHosts).toBeUndefined()
    expect(usageError(['--allowed-hosts', 'http://a.test/'])).toMatch(/--allowed-hosts must be all or comma-separated host names/)
    for (const entry of ['.', ':5101', '[::1]x', 'mock.test:80', '-a.test', 'a..test', '::1', '[not-v6]', 'a b', 'café.test']) {
      expect(usageError(['--allowed-hosts', `ok.test,${entry}`])).toBe(`--allowed-hosts must be all or comma-separated host names like mock.test,.example.com (no port), got "ok.test,${entry}": "${entry}" is none`)
    }
    expect(startConfig(['--allowed-hosts', 'mock.test,.example.com,my_service,192.168.1.5,[::1],fqdn.test.']).allowedHosts).toEqual(['mock.test', '.example.com', 'my_service', '192.168.1.5', '[::1]', 'fqdn.test.'])
  })

  it.each([
    [{ prot: 4011 }, 'novu-mock.config.json: unknown key "prot" (did you mean "port"?)'],
    [{ config: 'x.json' }, 'novu-mock.config.json: unknown key "config"'],
    [{ port: '4011' }, 'novu-mock.config.json: "port" must be a whole number, got "4011"'],
    [{ envelope: 'yes' }, 'novu-mock.config.json: "envelope" must be true or false, got "yes"'],
    [{ 'api-key': [1] }, 'novu-mock.config.json: "api-key" must be a string or an array of strings, got [1]'],
    [[4011], 'novu-mock.config.json: expected a JSON object of options keyed by flag name'],
  ])('refuses the config file %j with one line naming the key', (content, message) => {
    const text = usageError([], {}, dirWithConfig(content))
    expect(text).toBe(message)
    expect(text).not.toContain('\n')
  })

  it('refuses a config file that is not JSON, and one that sets a bad value', () => {
    expect(usageError([], {}, dirWithConfig('{"port": 40'))).toMatch(/^novu-mock\.config\.json: not valid JSON/)
    expect(usageError([], {}, dirWithConfig({ 'cors-origins': 'not an origin' }))).toMatch(/^novu-mock\.config\.json: "cors-origins" must be \*, none, or comma-separated origins/)
  })

  it('names where a bad value was set: the flag, the variable, or the config file\'s key', () => {
    expect(usageError([], { NOVU_MOCK_PORT: 'abc' })).toBe('NOVU_MOCK_PORT must be a whole number from 0 to 65535, got "abc"')
    expect(usageError([], { PORT: 'abc' })).toBe('PORT must be a whole number from 0 to 65535, got "abc"')
    expect(usageError(['--port', 'abc'], { NOVU_MOCK_PORT: '4011' })).toBe('--port must be a whole number from 0 to 65535, got "abc"')
    expect(usageError(['--port', ''])).toBe('--port must be a whole number from 0 to 65535, got ""')
    expect(usageError([], {}, dirWithConfig({ subscribers: 1 }))).toBe('novu-mock.config.json: "subscribers" must be a whole number of at least 2, got "1"')
    expect(usageError([], { NOVU_MOCK_LOG_LEVEL: 'loud' })).toBe('NOVU_MOCK_LOG_LEVEL must be one of debug, info, warn, error, silent, got "loud"')
    expect(usageError([], { NOVU_MOCK_RATE_LIMIT: 'fast' })).toMatch(/^NOVU_MOCK_RATE_LIMIT must look like 100\/1/)
    expect(usageError([], { NOVU_MOCK_PROXY: 'nowhere' })).toBe('NOVU_MOCK_PROXY must be a URL, got "nowhere"')
    expect(usageError(['validate-fixtures', 'dir'], { NOVU_MOCK_FIXTURES_MODE: 'mix' })).toBe('NOVU_MOCK_FIXTURES_MODE must be one of merge, replace, got "mix"')
  })

  it('reads --tenant-ttl and NOVU_MOCK_TENANT_TTL as a duration: days, hours, minutes, seconds, or 0 for ever', () => {
    const DAY = 24 * 60 * 60 * 1000
    expect(startConfig([]).tenantTtlMs).toBe(30 * DAY)
    expect(startConfig(['--tenant-ttl', '7d']).tenantTtlMs).toBe(7 * DAY)
    expect(startConfig(['--tenant-ttl', '12h']).tenantTtlMs).toBe(12 * 60 * 60 * 1000)
    expect(startConfig(['--tenant-ttl', '90m']).tenantTtlMs).toBe(90 * 60 * 1000)
    expect(startConfig([], { NOVU_MOCK_TENANT_TTL: '45s' }).tenantTtlMs).toBe(45_000)
    expect(startConfig([], { NOVU_MOCK_TENANT_TTL: '3600' }).tenantTtlMs).toBe(3_600_000)
    expect(startConfig(['--tenant-ttl', '0']).tenantTtlMs).toBe(0)
    for (const bad of ['1w', '1.5d', '', 'd']) {
      expect(usageError(['--tenant-ttl', bad])).toBe(`--tenant-ttl must be a duration like 30d, 12h, 90m, 45s or a number of seconds (0: for ever), got "${bad}"`)
    }
    expect(usageError([], { NOVU_MOCK_TENANT_TTL: 'soon' })).toMatch(/^NOVU_MOCK_TENANT_TTL must be a duration/)
  })

  it('reads --memory-budget and NOVU_MOCK_MEMORY_BUDGET as a size, half of V8’s heap limit by default', () => {
    expect(startConfig([]).memoryBudget).toBe(Math.floor(getHeapStatistics().heap_size_limit / 2))
    expect(startConfig(['--memory-budget', '512m']).memoryBudget).toBe(512 * 2 ** 20)
    expect(startConfig(['--memory-budget', '2g']).memoryBudget).toBe(2 * 2 ** 30)
    expect(startConfig(['--memory-budget', '2G']).memoryBudget).toBe(2 * 2 ** 30)
    expect(startConfig([], { NOVU_MOCK_MEMORY_BUDGET: '268435456' }).memoryBudget).toBe(268_435_456)
    for (const bad of ['lots', '1.5g', '', '1t', '100']) {
      expect(usageError(['--memory-budget', bad])).toBe(`--memory-budget must be a size like 512m, 2g or a number of bytes (at least 1m), got "${bad}"`)
    }
    expect(usageError([], { NOVU_MOCK_MEMORY_BUDGET: 'big' })).toMatch(/^NOVU_MOCK_MEMORY_BUDGET must be a size/)
  })

  it('names an unknown flag, and the one it probably meant', () => {
    expect(usageError(['--nope'])).toBe("Unknown option '--nope'")
    expect(usageError(['--prot', '1'])).toBe("Unknown option '--prot' (did you mean --port?)")
    expect(usageError(['--out', 'x.json'])).toBe("Unknown option '--out' (only the seed command takes it)")
    expect(usageError(['--subscriber', '3'])).toBe("Unknown option '--subscriber' (did you mean --subscribers?)")
    expect(usageError(['--log-levl', 'info'])).toBe("Unknown option '--log-levl' (did you mean --log-level?)")
    expect(usageError(['serve'])).toBe('unknown command "serve" (commands: start, seed, validate-fixtures, verify)')
  })
})

describe('commands', () => {
  it('start is the default; seed takes --out; validate-fixtures takes one path', () => {
    expect(parseCli([], {}, emptyDir()).kind).toBe('start')
    expect(parseCli(['start', '--seed', '2'], {}, emptyDir())).toMatchObject({ kind: 'start', config: { seed: 2 } })
    expect(parseCli(['seed', '--out', 'x.json', '--subscribers', '4'], {}, emptyDir())).toMatchObject({ kind: 'seed', out: 'x.json', config: { volumes: { subscribers: 4 } } })
    expect(parseCli(['validate-fixtures', 'dir', '--fixtures-mode', 'replace'], {}, emptyDir())).toMatchObject({ kind: 'validate-fixtures', config: { fixtures: { dir: 'dir', mode: 'replace' } } })
    expect(usageError(['validate-fixtures'])).toMatch(/validate-fixtures needs a fixtures folder or state file/)
    expect(usageError(['validate-fixtures', 'a', 'b'])).toMatch(/takes one folder or file, got 2/)
  })

  it('--help lists every command, and every flag with its variable and default', () => {
    const help = helpText()
    for (const command of ['start', 'seed', 'validate-fixtures', 'verify']) expect(help).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
    for (const [name, flag] of Object.entries(FLAGS)) {
      const block = help.slice(help.indexOf(`  --${name} `))
      expect(block.split('\n').slice(0, 2).join('\n')).toContain(`default: ${flag.default}; env ${flag.env}`)
    }
  })
})
