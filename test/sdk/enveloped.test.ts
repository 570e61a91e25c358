// The official SDK (@novu/api) as a test client, against a server with results wrapped as {"data": …}, like the live service (docs/behaviour.md §1.1).
import { channelConnectionsSuite } from './channel-connections.suite.ts'
import { errorsSuite } from './errors.suite.ts'
import { operationsSuite } from './operations.suite.ts'

const options = { envelope: true }

operationsSuite('enveloped', options)
channelConnectionsSuite('enveloped', options)
errorsSuite('enveloped', options)
