// The five operations, as the page offers them to fault rules and verification. The page is plain
// JavaScript served as it is, so the list is written out here; test/unit/operation-lists.test.ts
// holds it to spec/openapi.yaml.
export const OPERATIONS = ['getSubscriber', 'upsertSubscriberCredentials', 'markMessagesAs', 'setPrimaryIntegration', 'listChannelConnections']
