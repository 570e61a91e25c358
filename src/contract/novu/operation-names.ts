import { readFileSync } from 'node:fs'
import { NOVU_SDK_METHODS } from './novu-document.ts'

/**
 * The five operations of spec/openapi.yaml by the operationId Novu's document gives the same route:
 * they answer to either name, and to the SDK's (docs/behaviour.md §10). `novu-names.test.ts`
 * checks each pair against both documents.
 */
export const FIVE_IN_NOVU: Readonly<Record<string, string>> = {
  SubscribersV1Controller_modifySubscriberChannel: 'upsertSubscriberCredentials',
  SubscribersController_getSubscriber: 'getSubscriber',
  IntegrationsController_setIntegrationAsPrimary: 'setPrimaryIntegration',
  ChannelConnectionsController_listChannelConnections: 'listChannelConnections',
  SubscribersV1Controller_markMessagesAs: 'markMessagesAs',
}

interface SdkMethods {
  sdk: string
  methods: Record<string, string>
}

let sdkMethods: SdkMethods | undefined

/** Novu's operationIds and the SDK's method path for each (spec/novu/sdk-methods.json), read at first use. */
export function sdkMethodsOf(): Readonly<Record<string, string>> {
  sdkMethods ??= JSON.parse(readFileSync(NOVU_SDK_METHODS, 'utf8')) as SdkMethods
  return sdkMethods.methods
}

let byName: Map<string, string> | undefined

/**
 * The name the journal records a call under, for any name of its operation: Novu's operationId
 * (`EventsController_trigger`), the SDK's method path (`trigger`, `subscribers.create`), or one
 * of the five's own (`getSubscriber`). A name of none is itself.
 */
export function journalName(name: string): string {
  byName ??= namesOf()
  return byName.get(name) ?? name
}

function namesOf(): Map<string, string> {
  const names = new Map<string, string>()
  for (const [operationId, method] of Object.entries(sdkMethodsOf())) {
    const recorded = FIVE_IN_NOVU[operationId] ?? operationId
    names.set(operationId, recorded).set(method, recorded)
  }
  return names
}

/** Every name a call may be matched by: the five's, Novu's operationIds, the SDK's methods. */
export function operationNames(): string[] {
  const methods = sdkMethodsOf()
  return [...Object.values(FIVE_IN_NOVU), ...Object.keys(methods), ...Object.values(methods)]
}
