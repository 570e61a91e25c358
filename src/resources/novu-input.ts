/**
 * The validated input of an operation of Novu's document: its values as the document's schema
 * allows them (checked before a handler runs), typed loosely, as Novu's document has no generated types.
 */
export interface NovuInput<Body = Record<string, unknown>> {
  path: Record<string, string>
  query: Record<string, unknown>
  body: Body
}
