import type { components } from '../contract/openapi-types.ts'
import type { StoredChannelConnection, StoredIntegration, StoredMessage, StoredSubscriber } from '../store/records.ts'
import type { Tenant } from './tenant.ts'

type Schemas = components['schemas']

/* Stored records become API records here: tenant ids stamped on, internal fields left behind. */

const stampOf = (tenant: Tenant) => ({ _organizationId: tenant.organizationId, _environmentId: tenant.environmentId })

export function presentSubscriber(record: StoredSubscriber, tenant: Tenant): Schemas['Subscriber'] {
  return { ...record, ...stampOf(tenant) }
}

export function presentIntegration(record: StoredIntegration, tenant: Tenant): Schemas['Integration'] {
  const { priority: _priority, createdAt: _createdAt, ...visible } = record
  // Secrets are never echoed: the live service answers set-primary with empty credentials too.
  return { ...visible, ...stampOf(tenant), credentials: {} }
}

export function presentConnection(record: StoredChannelConnection): Schemas['ChannelConnection'] {
  const { _id, ...visible } = record
  return visible
}

export function presentMessage(record: StoredMessage, tenant: Tenant): Schemas['Message'] {
  const stamp = stampOf(tenant)
  const { template, ...rest } = record
  if (!template) return { ...rest, ...stamp }
  const { notificationGroup, ...workflow } = template
  const stampedTemplate: Schemas['Workflow'] = notificationGroup
    ? { ...workflow, ...stamp, notificationGroup: { ...notificationGroup, ...stamp } }
    : { ...workflow, ...stamp }
  return { ...rest, ...stamp, template: stampedTemplate }
}
