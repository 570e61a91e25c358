import { Ajv2020, type Options } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import ajvErrorsModule from 'ajv-errors'

// Both plugins are CommonJS; under NodeNext their default import is the module object.
const addFormats = addFormatsModule.default
const ajvErrors = ajvErrorsModule.default

/** Keywords OpenAPI adds to JSON Schema; registered so strict mode can stay on. */
const OPENAPI_KEYWORDS = ['example']

const base: Options = { strict: true, allErrors: true, allowUnionTypes: true }

function makeAjv(options: Options): Ajv2020 {
  const ajv = new Ajv2020({ ...base, ...options })
  addFormats(ajv)
  ajvErrors(ajv)
  ajv.addVocabulary(OPENAPI_KEYWORDS)
  return ajv
}

/**
 * One option set per kind of data. Parameters arrive as strings and are coerced (a single value
 * becomes an array where the schema says array). API bodies are never coerced and lose the fields
 * a closed object does not know (ignored, not stored). That stripping happens in place, even
 * inside an `anyOf` branch that then fails, so it only suits documents whose bodies branch on
 * primitives, as the five operations' do; the admin API's stored records (whose step metadata is
 * an `anyOf` of closed objects) are checked exactly instead. Responses are checked as they are.
 */
export function createAjvInstances() {
  return {
    params: makeAjv({ coerceTypes: 'array', useDefaults: true }),
    strippingBody: makeAjv({ removeAdditional: true }),
    exactBody: makeAjv({}),
    response: makeAjv({}),
  }
}

export type BodyHandling = 'strip-unknown' | 'exact'

export type AjvInstances = ReturnType<typeof createAjvInstances>
