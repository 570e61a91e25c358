import type { Handler } from './operation-context.ts'

/**
 * Novu's operations that keep state, by Novu's operationId (spec/novu/novu-openapi.json). Each
 * one not named here is answered from the document and changes nothing (docs/behaviour.md §10);
 * making one stateful is adding its handler here. The five keep their own handlers (handlers.ts),
 * served on their paths whatever this map says.
 */
export const novuHandlers: Readonly<Record<string, Handler>> = {}
