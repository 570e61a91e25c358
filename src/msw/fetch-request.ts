import { ApiError } from '../answer/api-error.ts'
import type { CallRequest } from '../core/call-request.ts'
import { payloadTooLarge, unsupportedEncoding } from '../core/body/body-reading.ts'

/** The encodings a WHATWG `DecompressionStream` undoes, as `Content-Encoding` names them. */
const DECOMPRESSED: Readonly<Record<string, 'gzip' | 'deflate'>> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate' }

/**
 * A WHATWG `Request` as the core reads it, `url` its path and query below the mock's base URL.
 * Its body is in memory already (msw holds it), so it is read at once; the limit the node door
 * enforces while streaming is enforced here on the decoded bytes, with the same 413.
 */
export async function fetchCallRequest(request: Request, url: string, bodyLimit: number): Promise<CallRequest> {
  const sent = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer())
  return {
    method: request.method,
    url,
    header: (name) => request.headers.get(name) ?? undefined,
    // Read by the journal only, once an answer is made: built then, not for every call.
    get rawHeaders() {
      return [...request.headers].flat()
    },
    hasBody: sent !== undefined && sent.byteLength > 0,
    jsonRead: undefined,
    bytes: async () => {
      const bytes = await decoded(request.headers.get('content-encoding'), sent ?? new Uint8Array())
      if (bytes.byteLength > bodyLimit) throw payloadTooLarge()
      return bytes
    },
  }
}

async function decoded(encoding: string | null, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  if (name === 'identity') return bytes
  const format = DECOMPRESSED[name]
  if (format === undefined) throw unsupportedEncoding(name)
  try {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format))).arrayBuffer())
  } catch (error) {
    throw new ApiError(400, 'MALFORMED_BODY', `Malformed request body: ${(error as Error).message}`)
  }
}
