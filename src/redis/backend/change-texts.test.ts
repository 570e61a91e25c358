import { describe, expect, it } from 'vitest'
import type { OverlayRow } from '../../store/store-backend.ts'
import { listed, listedRows, recordTexts, RELOAD } from './change-texts.ts'

describe('a put as the tenant’s list keeps it', () => {
  const rows: OverlayRow[] = [
    { kind: 'integrations', id: 'int-"1"', record: { _id: 'int-"1"', primary: true, nested: { list: [1, 'é\n'] } } },
    { kind: 'subscribers', id: 'sub', record: null, seq: 0 },
    { kind: 'messages', id: 'm', record: { _id: 'm' }, seq: 3 },
  ]

  it('reads back as the change JSON.stringify lists, a put or a replace', () => {
    for (const type of ['put', 'replace'] as const) {
      const change = { type, tenant: 'ApiKey "t"', rows }
      const text = listedRows(change, recordTexts(rows), 64 * 1024)
      expect(JSON.parse(text)).toEqual(JSON.parse(listed(change, 64 * 1024)))
      expect(text).toHaveLength(listed(change, 64 * 1024).length)
    }
  })

  it('is listed as reload past the limit, as listed is', () => {
    const change = { type: 'put' as const, tenant: 't', rows }
    const limit = listed(change, Infinity).length - 1
    expect(listedRows(change, recordTexts(rows), limit)).toBe(RELOAD)
    expect(listed(change, limit)).toBe(RELOAD)
  })
})
