// Server-sent events over fetch: EventSource cannot send the Authorization header, and the key
// must never go in a URL.

/** The stream was answered with an error status (a bad key, too many streams). */
export class StreamRefused extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/**
 * Opens `url` with `headers` and calls `onEvent({ event, id, data })` for each event, until the
 * stream ends (resolves) or fails or `signal` aborts it (rejects).
 */
export async function readEventStream(url, headers, signal, onEvent) {
  const response = await fetch(url, { headers, signal, cache: 'no-store' })
  if (!response.ok) throw new StreamRefused(response.status, errorMessage(response.status, await response.json().catch(() => undefined)))
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value.replace(/\r\n?/g, '\n')
    let end
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event = parseBlock(block)
      if (event) onEvent(event)
    }
  }
}

/** One event's lines (`field: value`); comment lines (`: keep-alive`) carry nothing. */
function parseBlock(block) {
  const event = { event: 'message', id: undefined, data: [] }
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') event.event = value
    else if (field === 'id') event.id = value
    else if (field === 'data') event.data.push(value)
  }
  return event.data.length === 0 ? undefined : { ...event, data: event.data.join('\n') }
}

/** `422: Validation Error`: the status, and the message of an error body (an ErrorDto, or the 503's string). */
export function errorMessage(status, body) {
  const message = typeof body === 'string' ? body : body?.message
  return `${status}${message ? `: ${message}` : ''}`
}
