/**
 * What both readings of a key's cost (bench/key-cost.ts, bench/key-cost-servers.ts) call and how:
 * one write operation (BENCH_KEY_OPERATION, set-primary by default) at 50 connections, each call
 * its own (bodies and ids rotate), keyed with a fresh key per call as the official SDK sends.
 *
 * The calls are written as the SDK writes them (bench/lib/sdk-request.ts), its headers and its
 * key's shape, with or without the key. `BENCH_KEY_SHAPE=minimal` writes them as the rest of the
 * bench does instead: three headers of the API's, and `Idempotency-Key: bench-<n>`.
 */
import { WRITE_OPERATIONS, type Operation } from './operations.ts'
import { HEADERS } from './processes.ts'
import { rawRequest } from './raw-client.ts'
import { sdkKey, sdkRequest } from './sdk-request.ts'

export const CONNECTIONS = 50
export const OPERATION = writeOperationNamed(process.env.BENCH_KEY_OPERATION ?? 'setPrimaryIntegration')
export const SHAPE: 'sdk' | 'minimal' = process.env.BENCH_KEY_SHAPE === 'minimal' ? 'minimal' : 'sdk'
/** How the calls are written, for the readings' titles. */
export const WRITTEN = SHAPE === 'sdk' ? 'requests as the SDK writes them' : 'requests as the rest of the bench writes them'

/** The header a kind of call adds to call n, if any. */
export type ExtraHeader = (n: number) => readonly [name: string, value: string] | undefined
export const NO_HEADER: ExtraHeader = () => undefined
export const KEY_HEADER: ExtraHeader = SHAPE === 'sdk' ? (n) => ['idempotency-key', sdkKey(n)] : (n) => ['Idempotency-Key', `bench-${n}`]

let calls = 0

/** The next call of the operation as bytes, with the header of its kind. */
export function nextCall(extra: ExtraHeader): Buffer {
  const n = calls++
  const body = OPERATION.body?.(n)
  const text = body === undefined ? undefined : JSON.stringify(body)
  const header = extra(n)
  if (SHAPE === 'sdk') return sdkRequest(OPERATION.method, OPERATION.path(n), text, header)
  return rawRequest(OPERATION.method, OPERATION.path(n), header ? { ...HEADERS, [header[0]]: header[1] } : HEADERS, text)
}

function writeOperationNamed(name: string): Operation {
  const named = WRITE_OPERATIONS.find((op) => op.name === name)
  if (!named) throw new Error(`BENCH_KEY_OPERATION: one of ${WRITE_OPERATIONS.map((op) => op.name).join(', ')}`)
  return named
}
