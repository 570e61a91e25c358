import typeis from 'type-is'
import { ApiError } from '../../answer/api-error.ts'

export const isMultipart = (contentType: string | undefined): boolean => contentType !== undefined && typeis.is(contentType, ['multipart/form-data']) !== false

/**
 * A `multipart/form-data` body's fields, parsed by the runtime's own parser (undici's, behind
 * `Response.formData`). A file is read and stands as its name: its contents are not kept
 * (docs/behaviour.md §10). A field sent several times, or named `x[]` or `files` (the live
 * service's file interceptors take a list there), is a list.
 */
export async function multipartFields(contentType: string, bytes: Uint8Array): Promise<Record<string, unknown>> {
  let form: FormData
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData()
  } catch (error) {
    throw new ApiError(400, 'MALFORMED_BODY', `Multipart: ${(error as Error).message}`)
  }
  const fields: Record<string, unknown> = Object.create(null)
  for (const [sent, value] of form.entries()) {
    const name = sent.endsWith('[]') ? sent.slice(0, -2) : sent
    const text = typeof value === 'string' ? value : value.name
    const listed = sent !== name || name === 'files' || Object.hasOwn(fields, name)
    const before = fields[name]
    fields[name] = !listed ? text : [...(Array.isArray(before) ? before : before === undefined ? [] : [before]), text]
  }
  return { ...fields }
}
