import { rmSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { FixtureError } from '../seed/fixture-error.ts'
import { NoFixtureFiles } from '../seed/fixture-files.ts'
import { RedisUnreachable } from '../redis/redis-connection.ts'
import { StoreFileError } from '../store/store.ts'
import { createMockServer } from '../app/create-mock-server.ts'
import { loadContracts, VERSION } from '../app/create-state.ts'
import { formatReport } from '../verify/format-report.ts'
import { VERIFY_HELP, type VerifyCommand } from '../verify/verify-options.ts'
import { NoAnswerError, verifyTarget } from '../verify/verify-target.ts'
import { helpText, parseCli, UsageError } from './parse-cli.ts'
import { seedProgressBar } from './progress.ts'
import { banner } from './banner.ts'
import type { ServerConfig } from '../app/config.ts'
import { createLogger, type Logger } from '../log/logger.ts'
import { prettyDestination } from '../log/pretty-log.ts'
import type { TenantState } from '../store/records.ts'
import type { FixturesRead } from '../seed/seeding.ts'

/** A file the CLI was told to write and could not: one line, like a usage error. */
class OutputError extends Error {}

/** The only place that reads argv and the environment, prints, or exits. */
async function main(): Promise<void> {
  // A reader that has seen enough (`novu-mock seed | head`) closes the pipe: that ends the command, quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(0)
  })
  const command = parseCli(process.argv.slice(2), process.env, process.cwd())
  if (command.kind === 'help') return void process.stdout.write(helpText())
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`)
  if (command.kind === 'verify-help') return void process.stdout.write(VERIFY_HELP)
  if (command.kind === 'verify') return verify(command.command)
  if (command.kind === 'seed') return seed(command.config, command.out)
  if (command.kind === 'validate-fixtures') return validateFixtures(command.config)
  const { config, pidFile, configFile } = command
  const server = await createMockServer({ ...config, logger: logger(config), onSeedProgress: seedProgressBar(process.stderr, config.volumes) })
  process.stdout.write(banner(server.url, server.app.locals.config, { configFile, fixtures: server.app.locals.fixtures }))
  const stop = () => void server.close().finally(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // Last: once the file is there, a kill of its id stops the server cleanly.
  if (pidFile !== undefined) writePidFile(pidFile)
}

/**
 * The process id, for a script that started the server in the background to stop this very
 * process (`npx` and `npm start` put others in between); removed on the way out, whatever the way.
 */
function writePidFile(file: string): void {
  try {
    writeFileSync(file, `${process.pid}\n`)
  } catch (error) {
    throw new OutputError(`cannot write --pid-file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  process.once('exit', () => rmSync(file, { force: true }))
}

/** Pretty lines for a person at a terminal, JSON lines for anything else. */
function logger(config: ServerConfig): Logger {
  const pretty = process.stderr.isTTY && config.logLevel !== 'silent'
  return createLogger(config.logLevel, pretty ? prettyDestination() : undefined)
}

async function verify({ options, json }: VerifyCommand): Promise<void> {
  const { api } = await loadContracts()
  const results = await verifyTarget(api, options)
  process.stdout.write(json ? `${JSON.stringify(results.map(({ body: _body, ...result }) => result), null, 2)}\n` : formatReport(options.target, results))
  process.exitCode = results.every((result) => result.passed) ? 0 : 1
}

/** The state every tenant of a server with this config starts from, checked as a start checks it. */
async function startingState(config: ServerConfig): Promise<TenantState> {
  const { admin } = await loadContracts()
  const onProgress = seedProgressBar(process.stderr, config.volumes)
  const { seededState } = await import('../seed/seeding.ts')
  const warn = (read: FixturesRead) => read.warnings.forEach((line) => process.stderr.write(`novu-mock: warning: ${line}\n`))
  return seededState({ seed: config.seed, demo: config.demo, ...config.volumes, fixtures: config.fixtures }, admin, onProgress, warn)
}

async function seed(config: ServerConfig, out: string | undefined): Promise<void> {
  const state = await startingState(config)
  const text = `${JSON.stringify(state, null, 2)}\n`
  if (out === undefined) return void process.stdout.write(text)
  try {
    writeFileSync(out, text)
  } catch (error) {
    throw new OutputError(`cannot write ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  process.stdout.write(`wrote ${counts(state)} (seed ${config.seed}) to ${out}\n`)
}

async function validateFixtures(config: ServerConfig & { fixtures: NonNullable<ServerConfig['fixtures']> }): Promise<void> {
  const files = (await import('../seed/seeding.ts')).fixtureFiles(config.fixtures.dir)
  const state = await startingState(config)
  const read = files.map((file) => basename(file)).join(', ')
  const { mode, why } = config.fixtures
  process.stdout.write(`OK ${config.fixtures.dir} (${read}): starts with ${counts(state)} (${why === undefined ? mode : `${mode}: ${why}`})\n`)
}

const counts = (state: TenantState) =>
  `${state.subscribers.length} subscribers, ${state.integrations.length} integrations, ${state.channelConnections.length} channel connections, ${state.messages.length} messages`

main().catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof FixtureError || error instanceof StoreFileError || error instanceof RedisUnreachable || error instanceof OutputError || error instanceof NoAnswerError
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') process.stderr.write(`novu-mock: the port is already in use (${(error as Error).message}); give another with --port <n> (or PORT)\n`)
  // Each line its own: a fixtures check lists every problem it found, one per line.
  else if (known) process.stderr.write(`${(error as Error).message.split('\n').map((line) => `novu-mock: ${line}`).join('\n')}${error instanceof UsageError ? `. Run ${error.help} for the options.` : ''}\n`)
  else process.stderr.write(`novu-mock: ${(error as Error)?.stack ?? String(error)}\n`)
  process.exit(error instanceof UsageError || error instanceof NoFixtureFiles ? 2 : 1)
})
