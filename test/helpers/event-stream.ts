export interface StreamEvent {
  event: string
  id?: string
  data: string
}

export interface EventReader {
  readonly status: number
  readonly headers: Headers
  /** Everything received so far, as sent. */
  readonly text: () => string
  /** The next event, or undefined when none comes within `timeoutMs`. */
  next(timeoutMs?: number): Promise<StreamEvent | undefined>
  close(): void
}

/** Opens a server-sent event stream with fetch (so headers can be sent) and queues its events. */
export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const controller = new AbortController()
  const response = await fetch(url, { headers, signal: controller.signal })
  const queue: StreamEvent[] = []
  const waiting: Array<() => void> = []
  let received = ''
  let buffer = ''
  void (async () => {
    const decoder = new TextDecoder()
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true })
        received += text
        buffer += text
        let end
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = parse(buffer.slice(0, end))
          buffer = buffer.slice(end + 2)
          if (event) queue.push(event)
        }
        waiting.splice(0).forEach((wake) => wake())
      }
    } catch {
      // Aborted by close(), or the server went away: the queue simply stops growing.
    }
  })()
  return {
    status: response.status,
    headers: response.headers,
    text: () => received,
    async next(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs
      while (queue.length === 0 && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          setTimeout(resolve, deadline - Date.now())
        })
      }
      return queue.shift()
    },
    close: () => controller.abort(),
  }
}

function parse(block: string): StreamEvent | undefined {
  const lines = block.split('\n').filter((line) => !line.startsWith(':'))
  if (lines.length === 0) return undefined
  const field = (name: string) => lines.filter((line) => line.startsWith(`${name}: `)).map((line) => line.slice(name.length + 2))
  return { event: field('event')[0] ?? 'message', id: field('id')[0], data: field('data').join('\n') }
}
