import { FixtureError } from './seeding.ts'
import { StoreFileError } from './store/json-file-adapter.ts'
import { createMockServer, loadContracts, VERSION } from './server.ts'
import { formatReport } from './verify/format-report.ts'
import { VERIFY_HELP, type VerifyCommand } from './verify/verify-options.ts'
import { verifyTarget } from './verify/verify-target.ts'
import { helpText, parseCli, UsageError } from './cli-options.ts'
import type { ServerConfig } from './config.ts'

/** The only place that reads argv and the environment, prints, or exits. */
async function main(): Promise<void> {
  const command = parseCli(process.argv.slice(2), process.env)
  if (command.kind === 'help') return void process.stdout.write(helpText())
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`)
  if (command.kind === 'verify-help') return void process.stdout.write(VERIFY_HELP)
  if (command.kind === 'verify') return verify(command.command)
  const { config } = command
  const server = await createMockServer(config)
  process.stdout.write(banner(server.url, config))
  const stop = () => void server.close().finally(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

async function verify({ options, json }: VerifyCommand): Promise<void> {
  const { api } = await loadContracts()
  const results = await verifyTarget(api, options)
  process.stdout.write(json ? `${JSON.stringify(results.map(({ body: _body, ...result }) => result), null, 2)}\n` : formatReport(options.target, results))
  process.exitCode = results.every((result) => result.passed) ? 0 : 1
}

function banner(url: string, config: ServerConfig): string {
  return [
    `novu-mock ${VERSION} listening on ${url}`,
    `  seed ${config.seed}; ${config.apiKeys.length > 0 ? `${config.apiKeys.length} API key(s) accepted` : 'any API key accepted (Authorization: ApiKey <key>)'}`,
    '  well-known records:',
    '    subscribers   demo-subscriber-1 (Ada Lovelace), demo-subscriber-2 (Grace Hopper)',
    '    integrations  64f100000000000000000001 sendgrid (email, primary) … 64f100000000000000000009 apns (push, inactive)',
    '    messages      64f200000000000000000001 … 64f200000000000000000010 (demo-subscriber-1), 64f300000000000000000001 … 03 (demo-subscriber-2)',
    `  health: ${url}/__admin/health`,
    `  API reference: ${url}/docs    state inspector: ${url}/__admin/ui`,
    '',
  ].join('\n')
}

main().catch((error: unknown) => {
  const known = error instanceof UsageError || error instanceof FixtureError || error instanceof StoreFileError
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') process.stderr.write(`novu-mock: the port is already in use (${(error as Error).message})\n`)
  else if (known) process.stderr.write(`novu-mock: ${(error as Error).message}\n${error instanceof UsageError ? 'Run novu-mock --help for the options.\n' : ''}`)
  else process.stderr.write(`novu-mock: ${(error as Error)?.stack ?? String(error)}\n`)
  process.exit(error instanceof UsageError ? 2 : 1)
})
