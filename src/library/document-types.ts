// The admin document's types under the library's names: generated from spec/admin.yaml, never written again.
import type { components, operations } from '../contract/generated/admin-types.ts'

type Schemas = components['schemas']

/** Every stored record of one tenant, as `GET /__admin/state` answers and `PUT` takes. */
export type TenantState = Schemas['TenantState']
/** One call recorded in the request journal. */
export type JournalEntry = Schemas['JournalEntry']
/** The operationId of one of the five operations of the API document. */
export type OperationId = Schemas['ApiOperationId']
/** The body of `POST /__admin/requests/verify`: an operation, and `count`, `atLeast`, `bodyMatches` or `status`. */
export type Expectation = Schemas['VerifyRequest']
/** A saved state of the tenant. */
export type SnapshotInfo = Schemas['SnapshotInfo']
/** A fault rule to add: a preset, or what to match and how to answer. */
export type FaultRuleInput = Schemas['FaultRuleRequest']
/** A fault rule in force, with its id. */
export type FaultRule = Schemas['FaultRule']
/** The query parameters of `GET /__admin/requests`. */
export type RequestFilter = NonNullable<operations['listRequests']['parameters']['query']>
/** A tenant's time, as `/__admin/clock` answers it: ISO 8601 with milliseconds, and whether it stands still. */
export type ClockState = Schemas['Clock']
/** A Pact V4 document of the tenant's calls, as `GET /__admin/pact` answers it. */
export type PactDocument = Schemas['PactDocument']
/** The query of `GET /__admin/pact`: the consumer's name, and `provider` (`novu`), `statuses` (`2xx`, or `all`). */
export type PactOptions = operations['exportPact']['parameters']['query']
