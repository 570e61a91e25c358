import { readFileSync } from 'node:fs'

/** What the image's last stage runs, as the Dockerfile says it: read, not copied, so the tests follow it. */
export interface RuntimeStage {
  env: Record<string, string>
  /** ENTRYPOINT followed by CMD. */
  command: string[]
  /** The HEALTHCHECK's command, without its options. */
  healthcheck: string[]
  /** Each RUN's shell command, `\\` continuations joined. */
  run: string[]
  /** Each COPY's arguments. */
  copy: string[]
}

interface Instruction {
  keyword: string
  args: string
}

/**
 * Reads only the forms this project's Dockerfile uses (ENV key=value, exec-form JSON commands) and
 * throws on anything else, so a rewrite in another form fails the tests instead of being misread.
 */
export function runtimeStage(file: string): RuntimeStage {
  const all = instructions(readFileSync(file, 'utf8'))
  const stage = all.slice(all.map((i) => i.keyword).lastIndexOf('FROM') + 1)
  const last = (keyword: string) => stage.filter((i) => i.keyword === keyword).at(-1)?.args
  const healthcheck = /^(?:--\S+\s+)*CMD\s+(\[.*\])$/.exec(last('HEALTHCHECK') ?? '')?.[1]
  if (healthcheck === undefined) throw new Error('the runtime stage has no HEALTHCHECK [options] CMD [...]')
  return {
    env: Object.assign({}, ...stage.filter((i) => i.keyword === 'ENV').map((i) => envPairs(i.args))),
    command: [...execForm('ENTRYPOINT', last('ENTRYPOINT')), ...execForm('CMD', last('CMD'))],
    healthcheck: execForm('HEALTHCHECK', healthcheck),
    run: stage.filter((i) => i.keyword === 'RUN').map((i) => i.args),
    copy: stage.filter((i) => i.keyword === 'COPY').map((i) => i.args),
  }
}

/** One per instruction, comments dropped and `\` continuations joined, as docker reads them. */
function instructions(text: string): Instruction[] {
  const code = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
  return code
    .split('\n')
    .map((line) => /^\s*(\S+)\s+(.*?)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ keyword: match[1]!.toUpperCase(), args: match[2]! }))
}

function envPairs(args: string): Record<string, string> {
  return Object.fromEntries(
    args.split(/\s+/).map((pair) => {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=([^"'\s$]*)$/.exec(pair)
      if (!match) throw new Error(`ENV ${args}: only unquoted key=value pairs are read here`)
      return [match[1]!, match[2]!]
    }),
  )
}

function execForm(keyword: string, args: string | undefined): string[] {
  if (args === undefined) return []
  const parsed = parseJson(args)
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new Error(`${keyword} ${args}: not exec form`)
  return parsed
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
