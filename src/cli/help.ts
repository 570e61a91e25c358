import { FLAGS, type Flag } from '../options/flags.ts'

const PLACEHOLDER: Record<Flag['kind'], string> = { integer: 'N', string: 'VALUE', boolean: '', list: 'LIST' }

/** `novu-mock --help`: the commands, then every flag with its variable and default. */
export function helpText(): string {
  const flags = Object.entries(FLAGS).map(([name, flag]: [string, Flag]) => {
    const env = flag.fallbackEnv ? `${flag.env} or ${flag.fallbackEnv}` : flag.env
    return `  ${`--${name} ${PLACEHOLDER[flag.kind]}`.padEnd(27)} ${flag.help}\n  ${''.padEnd(27)} default: ${flag.default}; env ${env}`
  })
  return [
    'Usage: novu-mock [command] [options]',
    '',
    'A stateful mock of five Novu API operations.',
    '',
    'Commands:',
    '  start                       serve the mock (the default)',
    '  seed [--out FILE]           write the state a tenant starts from (as GET /__admin/state shows it;',
    '                              load it back with --fixtures FILE or PUT /__admin/state); stdout without --out',
    '  validate-fixtures PATH      check a fixtures folder or state file as a start would; exit 1 naming the problem',
    '  verify --target URL ...     check a real service against the contract (novu-mock verify --help)',
    '',
    'Options of start, seed and validate-fixtures (flag > env > config file > default):',
    ...flags,
    `  ${'-h, --help'.padEnd(27)} this text`,
    `  ${'-v, --version'.padEnd(27)} the version`,
    '',
    'The config file is JSON keyed by flag name, e.g. {"port": 4011, "seed": 7, "api-key": ["k1", "k2"], "demo": true}.',
    '',
  ].join('\n')
}
