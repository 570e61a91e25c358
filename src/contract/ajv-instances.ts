import { Ajv2020, type Options } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import ajvErrorsModule from 'ajv-errors'

// Both plugins are CommonJS; under NodeNext their default import is the module object.
const addFormats = addFormatsModule.default
const ajvErrors = ajvErrorsModule.default

/** Keywords OpenAPI adds to JSON Schema; registered so strict mode can stay on. */
const OPENAPI_KEYWORDS = ['example']

const base: Options = { strict: true, allErrors: true, allowUnionTypes: true }

function makeAjv(options: Options, { errorMessages = false } = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...base, ...options })
  addFormats(ajv)
  // ajv-errors costs ~40 ms of start-up per instance; the document's errorMessage keywords are on
  // parameters only, and strict mode refuses one anywhere else, so nothing goes unnoticed.
  if (errorMessages) ajvErrors(ajv)
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
  const exact = makeAjv({ ...code })
  return {
    params: makeAjv({ coerceTypes: 'array', useDefaults: true, ...code }, { errorMessages: true }),
    strippingBody: makeAjv({ removeAdditional: true, ...code }),
    exactBody: exact,
    response: exact,
  }
}

export type BodyHandling = 'strip-unknown' | 'exact'

export type AjvInstances = ReturnType<typeof createAjvInstances>

export type ValidatorKind = keyof AjvInstances
