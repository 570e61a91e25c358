import type { ValidateFunction } from 'ajv/dist/2020.js'
import { createAjvInstances, type AjvInstances, type ValidatorKind } from './ajv-instances.ts'

export type JsonSchema = Record<string, unknown>

/**
 * Where a validator comes from: compiled from its schema now, or the code the build compiled
 * from the same schema. `key` names the validator the same way in both.
 */
export interface ValidatorSource {
  validator(kind: ValidatorKind, key: string, schema: () => JsonSchema): ValidateFunction
}

/** Compiles on demand; the ajv instances are made on the first compile, not before. */
export function compilingSource(): ValidatorSource {
  let ajv: AjvInstances | undefined
  return { validator: (kind, _key, schema) => (ajv ??= createAjvInstances())[kind].compile(schema()) }
}
