// A user's first file, as issue 30 wrote it: test/packaging/pack.test.ts copies it beside the
// installed tarball, compiles it with tsconfig.json (strict, nodenext, skipLibCheck false) and runs it.
import { startMockServer, VerificationError, type MockServer, type Tenant } from 'novu-mock'

const mock: MockServer = await startMockServer({ port: 0, logLevel: 'silent' })
const t: Tenant = mock.tenant('my-api-key')
await fetch(`${mock.url}/v2/subscribers/demo-subscriber-1`, { headers: { Authorization: 'ApiKey my-api-key' } })
const s = await t.state() // s.messages[0].read is typed
await t.verify({ operationId: 'getSubscriber', count: 1 })
const missed = await t.verify({ operationId: 'markMessagesAs' }).catch((error: unknown) => error)
await t.reset()
await mock.close()

const read: boolean | undefined = s.messages[0].read
const verification = missed instanceof VerificationError ? missed.message.split('\n')[0] : `not a VerificationError: ${String(missed)}`
console.log(JSON.stringify({ url: mock.url, read, verification }))
