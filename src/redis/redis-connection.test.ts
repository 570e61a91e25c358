import { describe, expect, it } from 'vitest'
import { freePort } from '../../test/helpers/free-port.ts'
import { connectRedis, RedisUnreachable } from './redis-connection.ts'
import { StoreFileError } from '../store/store.ts'

describe('connectRedis', () => {
  it('refuses a Redis it cannot reach with a RedisUnreachable naming the URL without its password, not a store-file error', async () => {
    const port = await freePort()
    const refused = await connectRedis(`redis://user:secret@127.0.0.1:${port}`).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(RedisUnreachable)
    expect(refused).not.toBeInstanceOf(StoreFileError)
    expect((refused as Error).message).toMatch(new RegExp(`^--redis redis://\\*\\*\\*@127\\.0\\.0\\.1:${port}: cannot connect \\(.*ECONNREFUSED`))
  })
})
