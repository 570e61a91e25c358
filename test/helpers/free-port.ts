import { connect, createServer, type AddressInfo } from 'node:net'

/** A port nobody listens on right now, for a child that must be told its port before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Resolves once `port` of 127.0.0.1 takes connections; rejects if `exited()` says its server ended first. */
export async function portOpen(port: number, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) throw new Error('the server exited before it listened')
    const socket = connect(port, '127.0.0.1')
    const open = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true)).once('error', () => resolve(false))
    }).finally(() => socket.destroy())
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
