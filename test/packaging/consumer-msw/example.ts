// A user's test setup with msw, as issue 44 wrote it: test/packaging/msw.test.ts copies it beside the
// installed tarball, msw and @novu/api, compiles it with tsconfig.json (strict, nodenext) and runs it.
import { Novu } from '@novu/api'
import { setupServer } from 'msw/node'
import { createNovuMock, type NovuMock } from 'novu-mock/msw'

const novu: NovuMock = await createNovuMock({ seed: 7 }) // baseUrl defaults to https://api.novu.co
const server = setupServer(...novu.handlers)
server.listen({ onUnhandledRequest: 'error' })
// The code under test, unchanged: the SDK at its default server URL.
const sdk = new Novu({ secretKey: 'my-key' })
const { result } = await sdk.subscribers.retrieve('demo-subscriber-1')
await sdk.subscribers.messages.markAllAs({ messageId: '64f200000000000000000001', markAs: 'read' }, 'demo-subscriber-1')
await novu.tenant('my-key').verify({ operationId: 'markMessagesAs', count: 1 })
const read: boolean | undefined = (await novu.tenant('my-key').state()).messages.find((m) => m._id === '64f200000000000000000001')?.read
server.close()
await novu.close()

console.log(JSON.stringify({ firstName: result.firstName, read }))
