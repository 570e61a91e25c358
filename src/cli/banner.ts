import type { ServerConfig } from '../app/config.ts'
import { VERSION } from '../app/create-state.ts'
import type { FixturesRead } from '../seed/seeding.ts'

/** What a start applied beyond its config: the config file it read, and what its fixtures gave. */
export interface Applied {
  configFile: string | undefined
  fixtures: FixturesRead | undefined
}

/**
 * What `start` prints once listening: where, and every setting that was applied and changes what
 * the mock answers, wherever it was set (flag, variable or config file), so that none acts unseen.
 */
export function banner(url: string, config: ServerConfig, applied: Applied): string {
  return [
    `novu-mock ${VERSION} listening on ${url}`,
    ...(applied.configFile === undefined ? [] : [`  config file: ${applied.configFile}`]),
    `  seed ${config.seed}${config.demo ? ' (demo data set)' : ''}: ${config.volumes.subscribers} subscribers, ${config.volumes.channelConnections} channel connections per tenant`,
    ...(config.fixtures === undefined ? [] : [`  fixtures: ${fixturesLine(config.fixtures, applied.fixtures)}`]),
    `  ${config.apiKeys.length > 0 ? `strict keys: ${config.apiKeys.length} API key(s) accepted, any other answered 401` : 'any API key accepted (Authorization: ApiKey <key>)'}`,
    `  store: ${storeOf(config)}`,
    ...answersLines(config),
    `  CORS: ${config.corsOrigins === 'none' ? 'off' : config.corsOrigins === '*' ? 'any origin' : config.corsOrigins.join(', ')}`,
    '  well-known records:',
    '    subscribers   demo-subscriber-1 (Ada Lovelace), demo-subscriber-2 (Grace Hopper)',
    '    integrations  64f100000000000000000001 sendgrid (email, primary) … 64f100000000000000000009 apns (push, inactive)',
    '    messages      64f200000000000000000001 … 64f200000000000000000010 (demo-subscriber-1), 64f300000000000000000001 … 03 (demo-subscriber-2)',
    `  health: ${url}/__admin/health`,
    `  API reference: ${url}/docs    state inspector: ${url}/__admin/ui`,
    '',
  ].join('\n')
}

function fixturesLine(fixtures: NonNullable<ServerConfig['fixtures']>, read: FixturesRead | undefined): string {
  const files = read === undefined ? '' : ` (${read.files.join(', ')})`
  const records = read === undefined ? '' : `: ${read.records} record${read.records === 1 ? '' : 's'}`
  const how = fixtures.mode === 'merge' ? 'merged on top of the seed' : 'replacing the seed'
  return `${fixtures.dir}${files}${records}, ${how}${read !== undefined && read.warnings.length > 0 ? `; ${read.warnings.length} warning(s) above` : ''}`
}

function storeOf(config: ServerConfig): string {
  if (config.db !== undefined) return `SQLite file ${config.db} (--db)`
  if (config.redis !== undefined) return `Redis ${withoutCredentials(config.redis)} (--redis), shared by every instance on it`
  return 'in memory (lost at exit)'
}

/** A Redis URL as a log may show it: its user and password left out. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return parsed.href
}

/** One line per setting that changes the answers themselves, each with its flag; nothing when all are defaults. */
function answersLines(config: ServerConfig): string[] {
  const lines: string[] = []
  if (config.envelope) lines.push('results enveloped as {"data": …} (--envelope)')
  if (config.clock !== undefined) lines.push(`every tenant's clock starts frozen at ${new Date(config.clock).toISOString()} (--clock)`)
  if (config.rateLimit !== undefined) lines.push(`rate limit ${config.rateLimit.limit}/${config.rateLimit.windowSeconds} enforced with 429 (--rate-limit)`)
  if (config.proxy !== undefined) lines.push(`the API forwarded to ${config.proxy.upstream}${config.proxy.strict ? ', 502 for an off-contract exchange' : ''} (--proxy)`)
  if (config.responseValidation !== 'strict') lines.push(`response validation ${config.responseValidation} (--response-validation)`)
  if (config.allowedHosts !== undefined) lines.push(`Host names answered: ${config.allowedHosts === 'all' ? 'any' : `loopback and ${config.allowedHosts.join(', ')}`} (--allowed-hosts)`)
  return lines.map((line) => `  answers: ${line}`)
}
