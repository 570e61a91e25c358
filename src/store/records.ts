import type { components } from '../contract/generated/admin-types.ts'

/** What the store holds: the interface's records plus internal fields, without tenant ids. */
export type StoredSubscriber = components['schemas']['StoredSubscriber']
export type StoredIntegration = components['schemas']['StoredIntegration']
export type StoredChannelConnection = components['schemas']['StoredChannelConnection']
export type StoredMessage = components['schemas']['StoredMessage']
export type TenantState = components['schemas']['TenantState']
export type TenantWorkflow = components['schemas']['TenantWorkflow']
