import SwaggerParser from '@apidevtools/swagger-parser'
import { API_DOCUMENT } from '../../src/contract/load-contract.ts'

interface Paths {
  paths: Record<string, Record<string, { operationId?: string }>>
}

/** Every operationId of a document, in its order. */
export const operationIdsOf = (document: Paths): (string | undefined)[] =>
  Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId))

/** The five operations, as spec/openapi.yaml names them (in its order): read from the document, never typed out. */
export const OPERATION_IDS: readonly string[] = operationIdsOf((await SwaggerParser.parse(API_DOCUMENT)) as unknown as Paths).filter((id) => id !== undefined)
