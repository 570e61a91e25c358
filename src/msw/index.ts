// `novu-mock/msw`: package.json's `exports` points here. msw is an optional peer dependency: only
// this entry imports it.
export { createNovuMock, DEFAULT_BASE_URL, type NovuMock, type NovuMockOptions } from './create-novu-mock.ts'
export { VerificationError, type VerificationFailure } from '../library/verification-error.ts'
export type { Tenant, TenantClock } from '../library/types.ts'
export type { ClockState, Expectation, FaultRule, FaultRuleInput, JournalEntry, OperationId, PactDocument, PactOptions, RequestFilter, SnapshotInfo, TenantState } from '../library/document-types.ts'
