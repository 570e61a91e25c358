import type { RecordsPort, Store } from '../store/store.ts'
import type { TenantIds } from './tenant.ts'

/**
 * What a handler gets: the store (each handler names the port it needs of it), the tenant,
 * validated input, and the clock. Nothing of HTTP.
 */
export interface OperationContext<Input, Port = Store> {
  readonly store: Port
  readonly tenant: TenantIds
  readonly input: Input
  readonly now: () => Date
}

export type Handler<Input = never> = (context: OperationContext<Input>) => Promise<unknown>

/** What a handler of the five operations gets: the records, and nothing else of the store. */
export type RecordsContext<Input> = OperationContext<Input, RecordsPort>

type Operations = import('../contract/generated/openapi-types.ts').operations
type JsonBody<T> = T extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined

/**
 * The query parameters each operation's document gives a default: validation fills them in (Ajv
 * `useDefaults`), so a handler reads them as given. The values live in the document only;
 * `operation-context.test.ts` checks this list against it.
 */
export const DEFAULTED_QUERY = { listChannelConnections: ['limit', 'orderDirection', 'orderBy', 'includeCursor'] } as const
type Defaulted = typeof DEFAULTED_QUERY

type Query<K extends keyof Operations> = NonNullable<Operations[K]['parameters']['query']>
type FilledQuery<K extends keyof Operations> = K extends keyof Defaulted
  ? Query<K> & Required<Pick<Query<K>, Defaulted[K][number] & keyof Query<K>>>
  : Query<K>

/** The validated input of one operation, typed from the document. */
export interface OperationInput<K extends keyof Operations> {
  path: NonNullable<Operations[K]['parameters']['path']>
  query: FilledQuery<K>
  body: JsonBody<Operations[K]>
}
