import type { Cluster, Redis } from 'ioredis'
import type { Writable } from 'node:stream'
/** A single Redis or a cluster (redis-connection.ts's RedisClient, not imported: that module imports this one). */
type RedisClient = Redis | Cluster

/** The sockets of a client with commands held back, and whether their flush is on its way. */
interface Held {
  sockets: Set<Writable>
  /** What sends its commands at the end of the turn, before they are written (beforeTurnWrite). */
  senders: (() => void)[]
  /** What sends its commands before the calls answering now write their answers (beforeAnswer). */
  answerSenders: (() => void)[]
  /** A flush at the end of the event loop's turn (setImmediate). */
  atTurnEnd: boolean
  /** A flush before the current code's continuations run (a microtask). */
  soon: boolean
}

const heldOf = new WeakMap<RedisClient, Held>()

/**
 * The commands sent to each connection of `client` in one turn of the event loop, by every call,
 * leave in one socket write, once the turn's I/O callbacks have run (setImmediate): ioredis writes
 * each command on its own, and at 50 connections each write costs this process a system call and
 * wakes Redis. A command's reply is what its sender waits for, so holding it back to the end of
 * the turn changes no answer; a command that is not waited for but must reach Redis before the
 * call is answered (the journal's entry) asks for `flushBeforeAnswer`. On a cluster each node's
 * connection is held back on its own, so the commands of one node leave together. ioredis's
 * `enableAutoPipelining` does not leave a moment for `beforeTurnWrite` (docs/decisions.md).
 */
export function writeInTurns(client: RedisClient): void {
  const held: Held = { sockets: new Set(), senders: [], answerSenders: [], atTurnEnd: false, soon: false }
  heldOf.set(client, held)
  if (!client.isCluster) return holdBack(client as Redis, held)
  const cluster = client as Cluster
  for (const node of cluster.nodes('all')) holdBack(node, held)
  cluster.on('+node', (node: Redis) => holdBack(node, held))
}

/**
 * Sends what the client holds back before the code now running goes on to its continuations (a
 * microtask): a command sent now is in Redis before the call that sent it writes its answer.
 */
export function flushBeforeAnswer(client: RedisClient): void {
  const held = heldOf.get(client)
  if (!held || held.sockets.size === 0) return
  soon(held)
}

/**
 * Runs `send` in that same microtask (flushBeforeAnswer), before what is held is written: the
 * commands it sends are in Redis before the calls answering now write their answers, and it can
 * send in one what those calls asked for one by one.
 */
export function beforeAnswer(client: RedisClient, send: () => void): void {
  const held = heldOf.get(client)
  if (!held) return void queueMicrotask(send)
  held.answerSenders.push(send)
  soon(held)
}

/**
 * Runs `send` once the turn's I/O callbacks have run, just before the turn's commands are
 * written: the commands it sends leave with them, and it can send in one what the turn's calls
 * asked for one by one.
 */
export function beforeTurnWrite(client: RedisClient, send: () => void): void {
  const held = heldOf.get(client)
  if (!held) return void setImmediate(send)
  held.senders.push(send)
  atTurnEnd(held)
}

/** ioredis sends every command (pipelines' too) through a connection's sendCommand, which writes to its socket at once. */
type SendCommand = (this: Redis, ...args: unknown[]) => unknown
const WRAPPED = Symbol('novu-mock turn writes')

function holdBack(node: Redis, held: Held): void {
  const wrapped = node as Redis & { [WRAPPED]?: true; sendCommand: SendCommand }
  if (wrapped[WRAPPED]) return
  wrapped[WRAPPED] = true
  const send = wrapped.sendCommand
  wrapped.sendCommand = function (this: Redis, ...args: unknown[]) {
    const socket = this.stream as Writable | undefined
    if (socket?.writable && !held.sockets.has(socket)) {
      socket.cork()
      held.sockets.add(socket)
      atTurnEnd(held)
    }
    return send.apply(this, args)
  }
}

/** The turn's senders run, then what they and the turn's calls sent written, once the turn's I/O callbacks have run. */
function atTurnEnd(held: Held): void {
  if (held.atTurnEnd) return
  held.atTurnEnd = true
  setImmediate(() => {
    for (const send of held.senders.splice(0)) send()
    held.atTurnEnd = false
    flush(held)
  })
}

/** The answer senders run, then what is held written, before the code now running goes on (a microtask). */
function soon(held: Held): void {
  if (held.soon) return
  held.soon = true
  queueMicrotask(() => {
    held.soon = false
    for (const send of held.answerSenders.splice(0)) send()
    flush(held)
  })
}

/** Writes what every held socket collected, each in one write (writev). */
function flush(held: Held): void {
  for (const socket of held.sockets) socket.uncork()
  held.sockets.clear()
}
