/**
 * The ceiling: a bare node:http server answering, per operation, a fixed JSON body of the same
 * size (and status) as novu-mock's answer. Usage: tsx bench/servers/ceiling.ts <port> <sizes-json>
 * where sizes-json maps "METHOD /path-prefix" to {"status": n, "bytes": n}.
 */
import { createServer } from 'node:http'

const port = Number(process.argv[2] ?? 4040)
const sizes = JSON.parse(process.argv[3] ?? '{}') as Record<string, { status: number; bytes: number }>

const fixedBody = (bytes: number) => Buffer.from(`{"p":"${'x'.repeat(Math.max(0, bytes - 8))}"}`)
const routes = Object.entries(sizes).map(([key, { status, bytes }]) => {
  const [method, prefix] = key.split(' ') as [string, string]
  return { method, prefix, status, body: fixedBody(bytes) }
})
const notFound = Buffer.from('{"statusCode":404}')

createServer((req, res) => {
  const route = routes.find((r) => r.method === req.method && req.url!.startsWith(r.prefix))
  req.resume()
  req.on('end', () => {
    res.writeHead(route?.status ?? 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': (route?.body ?? notFound).length })
    res.end(route?.body ?? notFound)
  })
}).listen(port, '127.0.0.1', () => console.log(`ceiling listening on ${port}`))
