import { packagePath } from '../lib/package-path.ts'

/** The records of docs/behaviour.md §5, one JSON file per kind. */
export const WELL_KNOWN_FILES = {
  subscribers: packagePath('fixtures/subscribers.json'),
  integrations: packagePath('fixtures/integrations.json'),
  messages: packagePath('fixtures/messages.json'),
} as const
