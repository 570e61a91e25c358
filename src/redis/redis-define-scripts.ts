import type { RedisClient } from './redis-connection.ts'

/** A Lua script and how many of its first arguments are keys; without `numberOfKeys`, each call passes the count first. */
export interface ScriptDefinition {
  lua: string
  numberOfKeys?: number
}

/**
 * Defines an adapter's scripts on the client, as ioredis does (EVALSHA, loaded again after a
 * restart of Redis), and answers them typed: `Scripts` names each script as a method, and every
 * method it names must be defined here.
 */
export function defineScripts<Scripts extends object>(client: RedisClient, definitions: { readonly [Name in keyof Scripts & string]: ScriptDefinition }): Scripts {
  for (const [name, definition] of Object.entries<ScriptDefinition>(definitions)) client.defineCommand(name, definition)
  // ioredis adds each defined script to the client as a method of its name, which its types cannot know.
  return client as unknown as Scripts
}
