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
 * Three option sets, one per kind of data: parameters arrive as strings and are coerced (a single
 * value becomes an array where the schema says array); bodies are never coerced, and lose the
 * fields that an `additionalProperties: false` object does not know (ignored, not stored; `true`,
 * not `all`, so the properties an `allOf` branch declares survive); responses are checked as
 * they are, closed schemas and all.
 */
export function createAjvInstances() {
  return {
    params: makeAjv({ coerceTypes: 'array', useDefaults: true }),
    body: makeAjv({ removeAdditional: true }),
    response: makeAjv({}),
  }
}

export type AjvInstances = ReturnType<typeof createAjvInstances>
