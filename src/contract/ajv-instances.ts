import { createRequire } from 'node:module'
import type { Ajv2020, Options } from 'ajv/dist/2020.js'
import { novuComponents } from './novu/novu-document.ts'

/**
 * Ajv's compiler is loaded when the first validator is compiled, not with this module: a run
 * from the build uses the precompiled validators only, and loading the compiler costs ~40 ms of
 * start-up. Both packages are CommonJS, so `require` loads them synchronously.
 */
const require = createRequire(import.meta.url)
const ajvPackages = () => ({
  Ajv: (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020,
  addFormats: (require('ajv-formats') as typeof import('ajv-formats')).default,
})

/** Keywords OpenAPI adds to JSON Schema; registered so strict mode can stay on. */
const OPENAPI_KEYWORDS = ['example']

const base: Options = { strict: true, allErrors: true, allowUnionTypes: true }

function makeAjv(packages: ReturnType<typeof ajvPackages>, options: Options): Ajv2020 {
  const { Ajv, addFormats } = packages
  const ajv = new Ajv({ ...base, ...options })
  addFormats(ajv)
  ajv.addVocabulary(OPENAPI_KEYWORDS)
  return ajv
}

/**
 * One option set per kind of data. Parameters arrive as strings and are coerced (a single value
 * becomes an array where the schema says array). API bodies are never coerced and lose the fields
 * a closed object does not know (ignored, not stored). That stripping happens in place, even
 * inside an `anyOf` branch that then fails, so it only suits documents whose bodies branch on
 * primitives, as the five operations' do; the admin API's stored records (whose step metadata is
 * an `anyOf` of closed objects) are checked exactly instead. Responses are checked as they are,
 * by the same instance. The instances hold no per-document state and can serve several documents.
 */
export function createAjvInstances({ keepSource = false } = {}) {
  // keepSource: the build writes the compiled validators out as code (ajv's standalone mode).
  const code = keepSource ? { code: { source: true } } : {}
  const packages = ajvPackages()
  const exact = makeAjv(packages, { ...code })
  // Novu's document (docs/behaviour.md §10) is checked as written: not strict (its schemas mix
  // keywords of several types), its bodies never stripped (nothing of them is kept), its
  // components added once, when its first validator is compiled.
  // Refs not inlined: its validators share one function per component in the build's file.
  const novuOptions = { ...code, strict: false, inlineRefs: false }
  const novu = lazy(() => withNovuComponents(makeAjv(packages, novuOptions)))
  const novuParams = lazy(() => withNovuComponents(makeAjv(packages, { coerceTypes: 'array', useDefaults: true, ...novuOptions })))
  return {
    params: makeAjv(packages, { coerceTypes: 'array', useDefaults: true, ...code }),
    strippingBody: makeAjv(packages, { removeAdditional: true, ...code }),
    exactBody: exact,
    response: exact,
    get novuParams() {
      return novuParams()
    },
    get novuBody() {
      return novu()
    },
    get novuResponse() {
      return novu()
    },
  }
}

function lazy<T>(make: () => T): () => T {
  let made: T | undefined
  return () => (made ??= make())
}

function withNovuComponents(ajv: Ajv2020): Ajv2020 {
  ajv.addSchema(novuComponents())
  return ajv
}

export type BodyHandling = 'strip-unknown' | 'exact'

export type AjvInstances = ReturnType<typeof createAjvInstances>

export type ValidatorKind = keyof AjvInstances
