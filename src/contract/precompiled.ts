import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { packagePath } from '../lib/package-path.ts'
import type { ValidatorSource } from './validator-source.ts'

/** The build's output: the documents dereferenced, and which export of which file is which validator. */
export interface PrecompiledIndex {
  specHash: string
  documents: Record<string, OpenAPIV3_1.Document>
  validators: Record<string, { file: string; name: string }>
}

export const PRECOMPILED_DIR = packagePath('dist/contract')
export const INDEX_FILE = 'index.json'

export interface Precompiled {
  document(name: string): OpenAPIV3_1.Document | undefined
  /** The build's validators; any key they lack goes to `fallback`. */
  source(fallback: ValidatorSource): ValidatorSource
}

/**
 * What the build compiled from the documents, when they have not changed since: reading
 * and compiling them spends most of the start-up otherwise. Undefined when there is no build,
 * or a document changed after it.
 */
export function precompiled(dir = PRECOMPILED_DIR): Precompiled | undefined {
  const file = join(dir, INDEX_FILE)
  if (!existsSync(file)) return undefined
  const index = JSON.parse(readFileSync(file, 'utf8')) as PrecompiledIndex
  if (index.specHash !== specHash()) return undefined
  const require = createRequire(file)
  return {
    document: (name) => index.documents[name],
    source: (fallback) => ({
      validator(kind, key, schema) {
        const entry = index.validators[key]
        if (!entry) return fallback.validator(kind, key, schema)
        return (require(join(dir, entry.file)) as Record<string, ValidateFunction>)[entry.name]!
      },
    }),
  }
}

/** A digest of every file in spec/ and its folders: the documents and whatever they reference. */
export function specHash(): string {
  const dir = packagePath('spec')
  const hash = createHash('sha256')
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((name) => statSync(join(dir, name)).isFile()).sort()
  for (const name of files) hash.update(name).update('\0').update(readFileSync(join(dir, name))).update('\0')
  return hash.digest('hex')
}
