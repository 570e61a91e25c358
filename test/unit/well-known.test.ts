import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ADA, ADA_ID, adaMessage, GRACE, GRACE_ID, graceMessage, INTEGRATIONS } from '../helpers/well-known.ts'

const fixture = <T>(kind: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${kind}.json`, import.meta.url), 'utf8')) as T[]

describe('the well-known ids the tests name (test/helpers/well-known.ts)', () => {
  it('are the records of fixtures/*.json', () => {
    const subscribers = fixture<{ _id: string; subscriberId: string }>('subscribers')
    expect(subscribers.map(({ _id, subscriberId }) => [_id, subscriberId])).toEqual([
      [ADA_ID, ADA],
      [GRACE_ID, GRACE],
    ])
    const integrations = fixture<{ _id: string; providerId: string }>('integrations')
    expect(Object.fromEntries(integrations.map(({ _id, providerId }) => [providerId, _id]))).toEqual(INTEGRATIONS)
    const messages = fixture<{ _id: string; _subscriberId: string }>('messages')
    const ownedBy = (owner: string) => messages.filter((message) => message._subscriberId === owner).map((message) => message._id)
    expect(ownedBy(ADA_ID)).toEqual(Array.from({ length: 10 }, (_, i) => adaMessage(i + 1)))
    expect(ownedBy(GRACE_ID)).toEqual(Array.from({ length: 3 }, (_, i) => graceMessage(i + 1)))
  })
})
