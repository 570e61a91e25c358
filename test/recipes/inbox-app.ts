import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A stand-in for the frontend under test: one page that greets a subscriber and marks a message
 * read, calling the Novu API at the base URL it was built with (here, the page's `?api=`).
 */
const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Inbox</title>
<h1 id="greeting">…</h1>
<button id="mark-read" data-message="64f200000000000000000001">Mark the first message read</button>
<p id="status"></p>
<script type="module">
  const params = new URLSearchParams(location.search)
  const api = params.get('api')
  const headers = { Authorization: 'ApiKey ' + params.get('key'), 'Content-Type': 'application/json' }
  const subscriber = await (await fetch(api + '/v2/subscribers/demo-subscriber-1', { headers })).json()
  document.querySelector('#greeting').textContent = 'Hello, ' + subscriber.firstName
  document.querySelector('#mark-read').addEventListener('click', async (event) => {
    const body = JSON.stringify({ messageId: [event.target.dataset.message], markAs: 'read' })
    const res = await fetch(api + '/v1/subscribers/demo-subscriber-1/messages/mark-as', { method: 'POST', headers, body })
    document.querySelector('#status').textContent = res.ok ? 'Marked read' : 'Failed: ' + res.status
  })
</script>
</html>`

export interface InboxApp {
  url: string
  close(): Promise<void>
}

/** Serves the page on 127.0.0.1 and a free port. */
export async function startInboxApp(): Promise<InboxApp> {
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}
