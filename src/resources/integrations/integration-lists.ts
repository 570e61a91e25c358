import type { OperationContext } from '../operation-context.ts'
import type { NovuInput } from '../novu-input.ts'
import type { RecordsPort } from '../../store/store.ts'
import { presentIntegration } from '../records/present.ts'
import { isLive } from './priorities.ts'

type Context = OperationContext<NovuInput, RecordsPort>

/** GET /v1/integrations: every integration not deleted, secrets hidden (docs/behaviour.md §11). */
export async function listIntegrations({ store, tenant }: Context) {
  return store.read(tenant.key, (view) => [...view.integrations()].filter(isLive).map((i) => presentIntegration(i, tenant)))
}

/** GET /v1/integrations/active: the active ones of those. */
export async function listActiveIntegrations({ store, tenant }: Context) {
  return store.read(tenant.key, (view) => [...view.integrations()].filter((i) => isLive(i) && i.active).map((i) => presentIntegration(i, tenant)))
}
