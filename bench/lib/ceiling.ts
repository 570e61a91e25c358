/** The ceiling, a bare node:http server (bench/servers/ceiling.ts), sized from novu-mock's own answers. */
import { join } from 'node:path'
import { OPERATIONS } from './operations.ts'
import { probe, ROOT, start, stop, type ServerDef } from './processes.ts'

export type AnswerSizes = Record<string, { status: number; bytes: number }>

/** Size and status of each operation's answer from `server`; also checks every request succeeds. */
export async function answerSizes(server: ServerDef): Promise<AnswerSizes> {
  const running = await start(server)
  try {
    const sizes: AnswerSizes = {}
    for (const op of OPERATIONS) {
      const answer = await probe(running.port, op.method, op.path(0), op.body?.(0))
      if (!answer || answer.status >= 300) throw new Error(`${server.name} ${op.name}: ${answer?.status} ${answer?.body.toString().slice(0, 500)}`)
      sizes[`${op.method} ${op.prefix}`] = { status: answer.status, bytes: answer.body.length }
    }
    return sizes
  } finally {
    await stop(running)
  }
}

export const ceilingDef = (sizes: AnswerSizes): ServerDef => ({
  name: 'node:http',
  command: (port) => [process.execPath, '--import', 'tsx', join(ROOT, 'bench/servers/ceiling.ts'), String(port), JSON.stringify(sizes)],
  ready: { path: '/v2/subscribers/demo-subscriber-1', ok: (status) => status > 0 },
})
