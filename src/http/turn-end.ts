import type { ServerResponse } from 'node:http'

let responses: ServerResponse[] = []
let texts: string[] = []
/** Answers made in this turn of the event loop so far. */
let made = 0
/** Whether this turn's answers wait for its end: the turn before made more than one. */
let gathering = false

/**
 * Ends `res` with `text`: at once when the last turn of the event loop made one answer or none,
 * else when this turn ends, with its other answers. Under load a turn makes the answers of many
 * connections; written one by one between the calls, each write found its client asleep and woke
 * it, and on this machine that wake-up cost the server more than a quick answer's own work
 * (docs/decisions.md, 2026-11-28). Written together, most find their client awake. A client
 * calling alone gets its answer at once: held to the turn's end, it waited a step of the loop for
 * nothing, and made its next call that much later.
 */
export function endAtTurnEnd(res: ServerResponse, text: string): void {
  if (made++ === 0) setImmediate(turnEnded)
  if (!gathering) return end(res, text)
  responses.push(res)
  texts.push(text)
}

function turnEnded(): void {
  gathering = made > 1
  made = 0
  endAll()
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
  for (let i = 0; i < ending.length; i++) end(ending[i]!, bodies[i]!)
}

function end(res: ServerResponse, text: string): void {
  try {
    res.end(text)
  } catch {
    // The connection went before its answer could be written: nothing left to tell the client.
    res.destroy()
  }
}
