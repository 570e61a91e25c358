import { describe, expect, it } from 'vitest'
import { schemaOf } from '../../src/contract/load-contract.ts'
import { loadContracts } from '../../src/app/create-state.ts'

const error = (timestamp: string) => ({ statusCode: 404, timestamp, path: '/x', message: 'not found' })

describe('date-time checks, remembered per string', () => {
  it('stay as strict the second time a string is seen: the calendar, the time and the offset', async () => {
    const validate = schemaOf((await loadContracts()).api, 'ErrorDto')
    for (let round = 0; round < 2; round++) {
      expect(validate(error('2024-02-29T10:00:00.000Z'))).toBe(true)
      expect(validate(error('2025-02-29T10:00:00.000Z'))).toBe(false)
      expect(validate(error('2025-01-01T24:00:00.000Z'))).toBe(false)
      expect(validate(error('2025-01-01T10:00:00'))).toBe(false)
      expect(validate(error('2025-01-01'))).toBe(false)
    }
  })
})
