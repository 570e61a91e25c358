import { basename, extname } from 'node:path'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { OpenAPIV3_1 } from 'openapi-types'
import { packagePath } from '../lib/package-path.ts'
import type { BodyHandling } from './ajv-instances.ts'
import { compileOperations } from './compile-operations.ts'
import type { Operation, Wording } from './operation.ts'
import { precompiled, type Precompiled } from './precompiled.ts'
import { rememberDateTimeVerdicts } from './date-time-format.ts'
import { compilingSource, type JsonSchema, type ValidatorSource } from './validator-source.ts'
import { NOVU, novuOperationsDocument } from './novu/novu-document.ts'
import { NOVU_SCHEMAS_ID } from './novu/openapi30.ts'

export const API_DOCUMENT = packagePath('spec/openapi.yaml')
export const ADMIN_DOCUMENT = packagePath('spec/admin.yaml')

/** A loaded document with every validator compiled: the single source of the contract. */
export interface Contract {
  readonly document: OpenAPIV3_1.Document
  readonly operations: ReadonlyMap<string, Operation>
  /** Validators of the named component schemas, compiled with the response options. */
  readonly schemas: ReadonlyMap<string, ValidateFunction>
}

export interface ContractOptions {
  bodies: BodyHandling
  /** How a 422 words its problems. */
  wording: Wording
  /** Component schemas to compile for use outside any operation. */
  componentNames?: readonly string[]
  source?: ValidatorSource
  /** The document as the build dereferenced it, when it is current. */
  document?: OpenAPIV3_1.Document | undefined
}

export interface Contracts {
  api: Contract
  admin: Contract
  /** Novu's published document, every operation of the Novu API (docs/behaviour.md §10): its operations, without its components. */
  novu: Contract
}

/**
 * The API's document and the control plane's, sharing one source of validators: the build's
 * when it is current, else compiled from the documents.
 */
export async function loadContracts(options: { source?: ValidatorSource; build?: Precompiled | undefined } = {}): Promise<Contracts> {
  rememberDateTimeVerdicts()
  const build = 'build' in options ? options.build : precompiled()
  const source = options.source ?? build?.source(compilingSource()) ?? compilingSource()
  const [api, admin] = await Promise.all([
    loadContract(API_DOCUMENT, { bodies: 'strip-unknown', wording: 'service', componentNames: ['ErrorDto'], source, document: build?.document(documentName(API_DOCUMENT)) }),
    loadContract(ADMIN_DOCUMENT, { bodies: 'exact', wording: 'fields', source, document: build?.document(documentName(ADMIN_DOCUMENT)) }),
  ])
  return { api, admin, novu: novuContract(source, build) }
}

/** Novu's operations, from the build's copy when it is current (a start-up never reads the 3 MB document then). */
export function novuContract(source: ValidatorSource, build: Precompiled | undefined): Contract {
  const document = build?.document(NOVU) ?? novuOperationsDocument()
  const kinds = { params: 'novuParams', body: 'novuBody', response: 'novuResponse' } as const
  const errorRefs = { error: `${NOVU_SCHEMAS_ID}#/$defs/ErrorDto`, validation: `${NOVU_SCHEMAS_ID}#/$defs/ValidationErrorDto` }
  return { document, operations: compileOperations(document, NOVU, source, { bodies: 'exact', wording: 'service', kinds, errorRefs }), schemas: new Map() }
}

/** `openapi` for spec/openapi.yaml: the name of a document in validator keys and the build. */
export const documentName = (file: string) => basename(file, extname(file))

export async function loadContract(file: string, options: ContractOptions): Promise<Contract> {
  const { bodies, wording, componentNames = [], source = compilingSource() } = options
  // Imported only here: a start-up from the build's dereferenced documents never needs the parser.
  const document = options.document ?? (await (await import('./load-document.ts')).loadDocument(file))
  const name = documentName(file)
  const components = document.components?.schemas ?? {}
  const schemas = new Map<string, ValidateFunction>()
  for (const component of componentNames) {
    const schema = components[component]
    if (!schema) throw new Error(`${file} has no component schema ${component}`)
    schemas.set(component, source.validator('response', `${name}:schema:${component}`, () => schema as JsonSchema))
  }
  return { document, operations: compileOperations(document, name, source, { bodies, wording }), schemas }
}

export function schemaOf(contract: Contract, name: string): ValidateFunction {
  const validate = contract.schemas.get(name)
  if (!validate) throw new Error(`component schema ${name} was not compiled`)
  return validate
}
