import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './processes.ts'

/** Writes a bench's raw results as bench/results/<timestamp><suffix>.json; answers the file's path. */
export function writeResults(results: object, suffix = ''): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
  const file = join(ROOT, 'bench/results', `${stamp}${suffix}.json`)
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
  return file
}
