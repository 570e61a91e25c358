import type { Store } from '../store/store.ts'
import type { Tenant } from './tenant.ts'

/** What a handler gets: the store, the tenant, validated input, and the clock. Nothing of HTTP. */
export interface OperationContext<Input> {
  readonly store: Store
  readonly tenant: Tenant
  readonly input: Input
  readonly now: () => Date
}

export type Handler<Input = never> = (context: OperationContext<Input>) => Promise<unknown>

type Operations = import('../contract/generated/openapi-types.ts').operations
type JsonBody<T> = T extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined

/** The validated input of one operation, typed from the document. */
export interface OperationInput<K extends keyof Operations> {
  path: NonNullable<Operations[K]['parameters']['path']>
  query: NonNullable<Operations[K]['parameters']['query']>
  body: JsonBody<Operations[K]>
}
