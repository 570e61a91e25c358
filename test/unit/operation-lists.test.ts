import { describe, expect, it } from 'vitest'
import { OPERATIONS as BENCH_OPERATIONS } from '../../bench/lib/operations.ts'
import { VALID as FUZZED } from '../reliability/fuzz-cases.ts'
import { OPERATION_IDS } from '../helpers/operations.ts'

/** The page's own module, plain JavaScript served to the browser as it is. */
const PAGE_MODULE = '../../src/admin/ui/operations.js'
const { OPERATIONS: INSPECTOR_OPERATIONS } = (await import(PAGE_MODULE)) as { OPERATIONS: string[] }

const sorted = (ids: readonly string[]) => [...ids].sort()

/**
 * Where the five operations must be listed by hand (a page served as it is; tables of one request
 * per operation), each list names exactly the operations of spec/openapi.yaml: one that misses or
 * misnames one fails here. Every other test reads them from the document (test/helpers/operations.ts).
 */
describe('the lists of the five operations', () => {
  it('spec/openapi.yaml has the five operations', () => {
    expect(sorted(OPERATION_IDS)).toEqual(['getSubscriber', 'listChannelConnections', 'markMessagesAs', 'setPrimaryIntegration', 'upsertSubscriberCredentials'])
  })

  it.each([
    ['the inspector page’s (fault rules, verification)', INSPECTOR_OPERATIONS],
    ['the benches’', BENCH_OPERATIONS.map((operation) => operation.name)],
    ['the fuzzer’s valid requests', FUZZED.map((request) => request.operationId)],
  ])('%s names each operation of the document once', (_name, ids) => {
    expect(sorted(ids)).toEqual(sorted(OPERATION_IDS))
  })
})
