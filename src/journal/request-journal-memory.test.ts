import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { RequestJournal, type JournalCall } from './request-journal.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const heapAfterGc = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const call = (responseBody: unknown): JournalCall => ({
  time: '2026-11-23T10:00:00.000Z',
  operationId: 'listChannelConnections',
  method: 'GET',
  path: '/v1/channel-connections',
  url: '/v1/channel-connections',
  status: 200,
  durationMs: 1,
  responseBody,
})

describe('RequestJournal memory: what it keeps is what it counts', () => {
  it('keeps of each cut page 16 KiB, not the page its envelope was written around', () => {
    const ENTRIES = 400
    const PAGE = 256 * 1024
    const journal = new RequestJournal(ENTRIES)
    const before = heapAfterGc()
    for (let i = 0; i < ENTRIES; i++) {
      // As the pipeline hands it over: the page's text, enveloped by concatenation.
      const page = `[${`"${i}`.padEnd(PAGE, 'r')}"]`
      journal.record('t', call({ data: [] }), { responseText: `{"data":${page}}` })
    }
    const kept = heapAfterGc() - before
    expect(journal.list('t', { limit: 1 })[0]?.truncated).toBe(true)
    // Each page kept whole is 100 MB (what the journal kept behind its cuts); 16 KiB each, about 7 MB.
    expect(kept).toBeLessThan(16 * 2 ** 20)
  })
})
