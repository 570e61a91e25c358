import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  /** By lower-cased name. */
  headers: Map<string, string>
  text: string
}

/**
 * `request` written as is on a connection of its own, the client's side then closed (FIN), and the
 * whole answer read until the server closes: what node's client and fetch never send (an
 * absolute-form target, a malformed line, a FIN right after the request).
 */
export async function halfClosedExchange(port: number, request: string): Promise<RawAnswer> {
  const socket = connect(port, '127.0.0.1')
  socket.end(request)
  let answer = ''
  for await (const chunk of socket) answer += String(chunk)
  const end = answer.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = answer.slice(0, end).split('\r\n')
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  return { status: Number(statusLine.split(' ')[1]), headers, text: answer.slice(end + 4) }
}
