// The official SDK (@novu/api) as a test client, against a server with results bare, as the interface says.
import { channelConnectionsSuite } from './channel-connections.suite.ts'
import { errorsSuite } from './errors.suite.ts'
import { operationsSuite } from './operations.suite.ts'

const options = {}

operationsSuite('bare', options)
channelConnectionsSuite('bare', options)
errorsSuite('bare', options)
