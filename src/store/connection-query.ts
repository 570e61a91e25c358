/** What one page of a tenant's channel connections asks for, and what it answers (docs/behaviour.md §2.4). */
import type { StoredChannelConnection } from './records.ts'

export type ConnectionOrder = 'createdAt' | 'updatedAt'

/** Exact values a connection must have; `contextKeys` compares as a set, an empty one meaning "no keys". */
export interface ConnectionCriteria {
  subscriberId?: string
  channel?: string
  providerId?: string
  integrationIdentifier?: string
  /** `shared`: no subscriber; `subscriber`: one. */
  connectionMode?: 'subscriber' | 'shared'
  contextKeys?: readonly string[]
}

export interface ConnectionQuery {
  readonly orderBy: ConnectionOrder
  readonly descending: boolean
  readonly limit: number
  /** Cursors: a connection's `_id`, which marks its sort position even when the criteria exclude it. */
  readonly after?: string | undefined
  readonly before?: string | undefined
  readonly includeCursor: boolean
  readonly criteria: ConnectionCriteria
}

export interface ConnectionPage {
  readonly items: StoredChannelConnection[]
  readonly next: string | null
  readonly previous: string | null
  readonly totalCount: number
  readonly totalCountCapped: boolean
}
