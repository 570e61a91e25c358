import { fileURLToPath } from 'node:url'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { createAjvInstances, type AjvInstances, type BodyHandling } from './ajv-instances.ts'
import { compileOperations } from './compile-operations.ts'
import { loadDocument } from './load-document.ts'
import type { Operation } from './operation.ts'

export const API_DOCUMENT = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url))
export const ADMIN_DOCUMENT = fileURLToPath(new URL('../../spec/admin.yaml', import.meta.url))

/** A loaded document with every validator compiled: the single source of the contract. */
export interface Contract {
  readonly document: OpenAPIV3_1.Document
  readonly operations: ReadonlyMap<string, Operation>
  /** Validators of the named component schemas, compiled with the response options. */
  readonly schemas: ReadonlyMap<string, ValidateFunction>
}

export interface ContractOptions {
  bodies: BodyHandling
  /** Component schemas to compile for use outside any operation. */
  componentNames?: readonly string[]
  ajv?: AjvInstances
}

export async function loadContract(file: string, options: ContractOptions): Promise<Contract> {
  const { bodies, componentNames = [], ajv = createAjvInstances() } = options
  const document = await loadDocument(file)
  const components = document.components?.schemas ?? {}
  const schemas = new Map<string, ValidateFunction>()
  for (const name of componentNames) {
    const schema = components[name]
    if (!schema) throw new Error(`${file} has no component schema ${name}`)
    schemas.set(name, ajv.response.compile(schema as Record<string, unknown>))
  }
  return { document, operations: compileOperations(document, ajv, bodies), schemas }
}

export function schemaOf(contract: Contract, name: string): ValidateFunction {
  const validate = contract.schemas.get(name)
  if (!validate) throw new Error(`component schema ${name} was not compiled`)
  return validate
}
