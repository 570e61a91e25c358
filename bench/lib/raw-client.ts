import { connect, type Socket } from 'node:net'

/** A request as bytes on the wire, made before it is timed. */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`)
}

/**
 * One keep-alive socket that writes prepared requests and times each answer until its last byte
 * (by Content-Length, which every answer of the mock carries). No HTTP client runs per call, so a
 * header more in the request or the answer costs this side nothing but its bytes, and a
 * difference between two calls is the server's.
 */
export class RawClient {
  private received: Buffer = Buffer.alloc(0)
  /** The answer's end in `received`, once its head is read. */
  private answerEnd = -1
  private waiting: { resolve: (us: number) => void; reject: (error: Error) => void; started: bigint } | undefined

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true)
    socket.on('data', (chunk: Buffer) => this.take(chunk, process.hrtime.bigint()))
    socket.on('error', (error) => this.fail(error))
    socket.on('close', () => this.fail(new Error('the server closed the connection')))
  }

  static async open(port: number): Promise<RawClient> {
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
    return new RawClient(socket)
  }

  /** Microseconds from writing `request` to the answer's last byte; rejects unless the answer is a 2xx. */
  call(request: Buffer): Promise<number> {
    // A write to a closed socket neither fails nor answers: without this, the call would wait for ever.
    if (this.socket.destroyed) return Promise.reject(new Error('the server closed the connection'))
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, started: process.hrtime.bigint() }
      this.socket.write(request)
    })
  }

  close(): void {
    this.waiting = undefined
    this.socket.destroy()
  }

  private take(chunk: Buffer, at: bigint): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk])
    if (this.answerEnd < 0) {
      const headEnd = this.received.indexOf('\r\n\r\n')
      if (headEnd < 0) return
      const head = this.received.toString('latin1', 0, headEnd)
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)
      if (!/^HTTP\/1\.1 2/.test(head) || !length) return this.fail(new Error(`unexpected answer: ${head.split('\r\n')[0]}`))
      this.answerEnd = headEnd + 4 + Number(length[1])
    }
    if (this.received.length < this.answerEnd) return
    this.received = this.received.subarray(this.answerEnd)
    this.answerEnd = -1
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.resolve(Number(at - waiting.started) / 1000)
  }

  private fail(error: Error): void {
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.reject(error)
  }
}
