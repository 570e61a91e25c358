import { parseArgs } from 'node:util'
import type { VerifyOptions } from './verify-target.ts'

const DEFAULT_TIMEOUT_MS = 10_000

export const VERIFY_HELP = `Usage: novu-mock verify --target <url> --api-key <key> [options]

Sends a documented sequence of calls for each operation to the target and checks every status,
media type and body against spec/openapi.yaml. Exit code 1 on any violation. Reads only, unless
--write is given; writes go only to the ids given, and a write whose id is not given is
reported as SKIP with the flag that sends it.

Options:
  --target URL            base URL of the server to check, its path kept as a prefix of every
                          probe (https://gateway/novu probes /novu/v2/…) (required); a target
                          that answers no probe as the Novu API would is one line, exit 1
  --api-key KEY           its API key (required; env NOVU_MOCK_VERIFY_API_KEY)
  --subscriber ID         subscriber to read (and, with --write, to upsert its own credentials back)
                          (default: demo-subscriber-1)
  --integration ID        with --write: an email or sms integration to set as primary
  --restore-primary ID    with --write: the integration to set as primary again afterwards
  --message ID            with --write: a message of the subscriber to mark seen (not undone)
  --write                 also send the calls that write
  --timeout MS            how long each call waits for an answer (default: ${DEFAULT_TIMEOUT_MS})
  --json                  print the results as JSON, for CI
`

export interface VerifyCommand {
  options: VerifyOptions
  json: boolean
}

/** Throws a plain Error with a usage message; the CLI prints it. */
export function parseVerify(argv: readonly string[], env: NodeJS.ProcessEnv): VerifyCommand | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      target: { type: 'string' },
      'api-key': { type: 'string' },
      subscriber: { type: 'string', default: 'demo-subscriber-1' },
      integration: { type: 'string' },
      'restore-primary': { type: 'string' },
      message: { type: 'string' },
      write: { type: 'boolean', default: false },
      timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_MS) },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return 'help'
  const apiKey = values['api-key'] ?? env.NOVU_MOCK_VERIFY_API_KEY
  if (!values.target || !URL.canParse(values.target)) throw new Error('verify needs --target <url>')
  if (!apiKey) throw new Error('verify needs --api-key <key>')
  const timeoutMs = Number(values.timeout)
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new Error(`--timeout must be a whole number of milliseconds, got "${values.timeout}"`)
  return {
    json: values.json,
    options: {
      target: values.target,
      apiKey,
      write: values.write,
      timeoutMs,
      targets: {
        subscriberId: values.subscriber,
        integrationId: values.integration,
        restorePrimaryId: values['restore-primary'],
        messageId: values.message,
      },
    },
  }
}
