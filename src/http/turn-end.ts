import type { ServerResponse } from 'node:http'

let responses: ServerResponse[] = []
let texts: string[] = []

/**
 * Ends `res` with `text` when the turn of the event loop that made it ends, with the other answers
 * of that turn, rather than as soon as it is made. Under load a turn makes the answers of many
 * connections; written one by one between the calls, each write found its client asleep and woke
 * it, and on this machine that wake-up cost the server more than a quick answer's own work
 * (docs/decisions.md, 2026-11-28). Written together, most find their client awake. A call alone
 * in its turn is written as that turn ends, without waiting for another.
 */
export function endAtTurnEnd(res: ServerResponse, text: string): void {
  if (responses.length === 0) setImmediate(endAll)
  responses.push(res)
  texts.push(text)
}

/**
 * Ends the answers waiting for the turn's end now: called when a client half-closes its side,
 * before node's own handler ends the connection (node answers a request sent before that FIN only
 * if its answer is ended first).
 */
export function endAll(): void {
  if (responses.length === 0) return
  const ending = responses
  const bodies = texts
  responses = []
  texts = []
  for (let i = 0; i < ending.length; i++) {
    const res = ending[i]!
    try {
      res.end(bodies[i])
    } catch {
      // The connection went before its answer could be written: nothing left to tell the client.
      res.destroy()
    }
  }
}
