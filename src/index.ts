// The package root (`import … from 'novu-mock'`): package.json's `exports` points here, and nothing
// else of the package is importable.
export { startMockServer } from './library/start-mock-server.ts'
export { VerificationError, type VerificationFailure } from './library/verification-error.ts'
export type { MockServer, MockServerOptions, Tenant, TenantClock } from './library/types.ts'
export type { ClockState, Expectation, FaultRule, FaultRuleInput, JournalEntry, OperationId, PactDocument, PactOptions, RequestFilter, SnapshotInfo, TenantState } from './library/document-types.ts'
