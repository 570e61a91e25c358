import { describe, expect, it } from 'vitest'
import { loadContracts } from '../app/create-state.ts'
import { DEFAULTED_QUERY } from './operation-context.ts'

describe('DEFAULTED_QUERY', () => {
  it('names exactly the query parameters the document gives a default, operation by operation', async () => {
    const { api } = await loadContracts()
    const defaulted: Record<string, string[]> = {}
    for (const [, item] of Object.entries(api.document.paths ?? {})) {
      for (const operation of Object.values(item ?? {})) {
        if (typeof operation !== 'object' || !operation || !('operationId' in operation)) continue
        const names = (operation.parameters ?? [])
          .filter((p) => 'in' in p && p.in === 'query' && p.schema !== undefined && 'default' in p.schema)
          .map((p) => ('name' in p ? p.name : ''))
        if (names.length > 0) defaulted[String(operation.operationId)] = names
      }
    }
    expect(defaulted).toEqual(Object.fromEntries(Object.entries(DEFAULTED_QUERY).map(([id, names]) => [id, [...names]])))
  })
})
