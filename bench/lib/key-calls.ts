/**
 * What both readings of a key's cost (bench/key-cost.ts, bench/key-cost-servers.ts) call and how:
 * one write operation (BENCH_KEY_OPERATION, set-primary by default) at 50 connections, each call
 * its own (bodies and ids rotate), keyed with a fresh key per call as the official SDK sends.
 */
import { WRITE_OPERATIONS, type Operation } from './operations.ts'
import { HEADERS } from './processes.ts'
import { rawRequest } from './raw-client.ts'

export const CONNECTIONS = 50
export const OPERATION = writeOperationNamed(process.env.BENCH_KEY_OPERATION ?? 'setPrimaryIntegration')

/** The headers of call n, by kind of call. */
export type CallHeaders = (n: number) => Record<string, string>
export const PLAIN_HEADERS: CallHeaders = () => HEADERS
export const KEYED_HEADERS: CallHeaders = (n) => ({ ...HEADERS, 'Idempotency-Key': `bench-${n}` })

let calls = 0

/** The next call of the operation as bytes, with the headers of its kind. */
export function nextCall(headers: CallHeaders): Buffer {
  const n = calls++
  const body = OPERATION.body?.(n)
  return rawRequest(OPERATION.method, OPERATION.path(n), headers(n), body === undefined ? undefined : JSON.stringify(body))
}

function writeOperationNamed(name: string): Operation {
  const named = WRITE_OPERATIONS.find((op) => op.name === name)
  if (!named) throw new Error(`BENCH_KEY_OPERATION: one of ${WRITE_OPERATIONS.map((op) => op.name).join(', ')}`)
  return named
}
