import { createServer, type AddressInfo } from 'node:net'

/** A port nobody listens on right now, for a child that must be told its port before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
