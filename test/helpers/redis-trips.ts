import { createConnection, createServer, Socket, type Server } from 'node:net'

/**
 * A TCP relay in front of a Redis that tells the round trips its clients make: the commands a
 * client sends before Redis next answers it are one trip, whatever the number of commands or
 * writes. Run in the process of the server under test, the relay reads only once that process's
 * turn of the event loop is over, so commands sent in one turn always fall in one trip, and a
 * command sent only once an answer came falls in a later one: order, not timing.
 */
export interface RedisTrips {
  /** The relay's URL, to give the server instead of Redis's. */
  readonly url: string
  /**
   * Forgets the trips seen so far, once every trip open has been answered: a command the last call
   * sent without waiting for it (its journal entry) may still be on its way, and a trip it opened
   * would take the next call's commands in.
   */
  clear(): Promise<void>
  /** The trips seen since the last `clear`, oldest first: the commands of each, by name (upper case), scripts as EVALSHA. */
  trips(): string[][]
  /**
   * The socket writes (each a system call) this process made to the relay since the last `clear`:
   * the kernel joins a turn's writes into one read at the relay, so `trips` cannot tell them apart.
   */
  writes(): number
  close(): Promise<void>
}

export async function relayTrips(redisUrl: string): Promise<RedisTrips> {
  const target = new URL(redisUrl)
  let seen: string[][] = []
  let writes = 0
  // The clients whose last commands Redis has not answered yet, and who waits for there to be none.
  const awaited = new Set<Socket>()
  const onSettled: (() => void)[] = []
  const answered = (client: Socket) => {
    awaited.delete(client)
    if (awaited.size === 0) for (const settled of onSettled.splice(0)) settled()
  }
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const redis = createConnection({ host: target.hostname, port: Number(target.port) })
    sockets.add(client).add(redis)
    const commands = commandReader()
    // The trip the client's next commands belong to; none open until it sends, a new one once Redis answered.
    let open: string[] | undefined
    client.on('data', (chunk: Buffer) => {
      const names = commands(chunk)
      if (names.length > 0) {
        if (!open) seen.push((open = []))
        open.push(...names)
        awaited.add(client)
      }
      redis.write(chunk)
    })
    redis.on('data', (chunk: Buffer) => {
      open = undefined
      answered(client)
      client.write(chunk)
    })
    client.on('close', () => answered(client))
    for (const [from, to] of [[client, redis], [redis, client]] as const) {
      from.on('close', () => to.destroy())
      from.on('error', () => to.destroy())
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const stopCounting = countWrites(port, () => writes++)
  return {
    url: `redis://127.0.0.1:${port}`,
    clear: async () => {
      if (awaited.size > 0) await new Promise<void>((resolve) => onSettled.push(resolve))
      seen = []
      writes = 0
    },
    trips: () => seen.map((trip) => [...trip]),
    writes: () => writes,
    close: () =>
      new Promise<void>((resolve) => {
        stopCounting()
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/**
 * Counts the writes this process's sockets connected to `port` hand to the system: a socket's
 * stream calls `_write` for one chunk, `_writev` for the chunks it held back (corked), each one
 * write to the kernel. Answers how to stop counting.
 */
function countWrites(port: number, counted: () => void): () => void {
  // The stream methods every net.Socket writes through; their types are the stream's, with `this` a Socket.
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (this: Socket, ...args: unknown[]) => void>
  const originals = { _write: proto._write, _writev: proto._writev }
  for (const name of ['_write', '_writev'] as const) {
    const original = originals[name]
    proto[name] = function (this: Socket, ...args: unknown[]) {
      if (this.remotePort === port) counted()
      return original.apply(this, args)
    }
  }
  return () => Object.assign(proto, originals)
}

/** Reads RESP commands (arrays of bulk strings) off a client's stream, chunk by chunk: the names of those complete so far. */
function commandReader(): (chunk: Buffer) => string[] {
  let pending = Buffer.alloc(0)
  return (chunk) => {
    pending = Buffer.concat([pending, chunk])
    const names: string[] = []
    for (;;) {
      const read = oneCommand(pending)
      if (!read) return names
      names.push(read.name)
      pending = pending.subarray(read.end)
    }
  }
}

/** The first command of `buffer`, when it is complete: its name and where it ends. */
function oneCommand(buffer: Buffer): { name: string; end: number } | undefined {
  let at = 0
  const line = (): string | undefined => {
    const end = buffer.indexOf('\r\n', at)
    if (end === -1) return undefined
    const text = buffer.toString('latin1', at, end)
    at = end + 2
    return text
  }
  const head = line()
  if (head === undefined || !head.startsWith('*')) return undefined
  let name = ''
  for (let i = 0; i < Number(head.slice(1)); i++) {
    const size = line()
    if (size === undefined) return undefined
    const length = Number(size.slice(1))
    if (buffer.length < at + length + 2) return undefined
    if (i === 0) name = buffer.toString('latin1', at, at + length).toUpperCase()
    at += length + 2
  }
  return { name, end: at }
}
