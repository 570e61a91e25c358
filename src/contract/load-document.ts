import SwaggerParser from '@apidevtools/swagger-parser'
import type { OpenAPIV3_1 } from 'openapi-types'

/**
 * Reads an OpenAPI document and resolves every `$ref` (external files included) once, at start-up.
 * Full validation of the document against the OpenAPI meta-schema runs in the test suite, not here,
 * so that start-up stays fast.
 */
export async function loadDocument(file: string): Promise<OpenAPIV3_1.Document> {
  const api = await SwaggerParser.dereference(file)
  return api as OpenAPIV3_1.Document
}

/** The document as written (every `$ref` kept), for serving it: parsed, not dereferenced. */
export async function parseDocument(file: string): Promise<OpenAPIV3_1.Document> {
  return (await SwaggerParser.parse(file)) as OpenAPIV3_1.Document
}
