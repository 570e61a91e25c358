/**
 * The floor of the chosen stack: express 5 with its defaults, express.json(), the request and
 * response schemas of each operation compiled once at start-up with Ajv 2020 from the same
 * document, run on every request, a Map store, res.json(). Written the naive way on purpose.
 * Usage: tsx bench/servers/naive-express.ts <port>
 */
import SwaggerParser from '@apidevtools/swagger-parser'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import express, { type Request, type Response } from 'express'
import { seedState } from '../../src/seed/generators/seed.ts'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
const port = Number(process.argv[2] ?? 4030)
const STAMP = { _organizationId: '6f1a00000000000000000001', _environmentId: '6f1b00000000000000000001' }

type Json = Record<string, any>
interface Operation {
  params?: ValidateFunction
  body?: ValidateFunction
  response: ValidateFunction
  status: number
}

const doc = (await SwaggerParser.dereference(new URL('../../spec/openapi.yaml', import.meta.url).pathname)) as Json
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
const coercing = addFormats(new Ajv2020({ strict: false, allErrors: true, coerceTypes: 'array', useDefaults: true }))
const operations = new Map<string, Operation>()
for (const item of Object.values(doc.paths as Json)) {
  for (const op of Object.values(item as Json) as Json[]) {
    if (!op?.operationId) continue
    const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path' || p.in === 'query')
    const success = Object.keys(op.responses).find((code) => code.startsWith('2'))!
    operations.set(op.operationId, {
      params: params.length
        ? coercing.compile({
            type: 'object',
            properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
            required: params.filter((p) => p.required).map((p) => p.name),
          })
        : undefined,
      body: op.requestBody ? ajv.compile(op.requestBody.content['application/json'].schema) : undefined,
      response: ajv.compile(op.responses[success].content['application/json'].schema),
      status: Number(success),
    })
  }
}

const state = seedState({ seed: 1, subscribers: 50, channelConnections: 120 })
const subscribers = new Map<string, Json>(state.subscribers.map((s) => [s.subscriberId, { ...s }]))
const integrations = new Map<string, Json>(state.integrations.map((i) => [i._id, { ...i }]))
const messages = new Map<string, Json>(state.messages.map((m) => [m._id, { ...m }]))
const connections = [...state.channelConnections].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)) as Json[]

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

function handle(operationId: string, run: (req: Request) => unknown) {
  const op = operations.get(operationId)!
  return (req: Request, res: Response) => {
    try {
      const params = { ...req.params, ...(req.query as Json) }
      if (op.params && !op.params(params)) throw new HttpError(422, JSON.stringify(op.params.errors))
      if (op.body && !op.body(req.body)) throw new HttpError(422, JSON.stringify(op.body.errors))
      const result = run(Object.assign(req, { validated: params }))
      if (!op.response(result)) throw new HttpError(500, JSON.stringify(op.response.errors))
      res.status(op.status).json(result)
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500
      res.status(status).json({ statusCode: status, timestamp: new Date().toISOString(), path: req.originalUrl, message: (error as Error).message })
    }
  }
}

const app = express()
app.use(express.json())
app.use((req, res, next) => {
  if (!req.headers.authorization?.startsWith('ApiKey ')) res.status(401).json({ statusCode: 401, message: 'API Key not found' })
  else next()
})

app.patch(
  '/v1/subscribers/:subscriberId/credentials',
  handle('upsertSubscriberCredentials', (req) => {
    const subscriber = subscribers.get(req.params.subscriberId as string)
    if (!subscriber) throw new HttpError(400, 'subscriber not found')
    const { providerId, credentials } = req.body as Json
    const integration = [...integrations.values()].find((i) => i.active && i.providerId === providerId)
    if (!integration) throw new HttpError(400, 'no active integration')
    const channels = (subscriber.channels ?? []) as Json[]
    const at = channels.findIndex((c) => c.providerId === providerId && c._integrationId === integration._id)
    const kept: Json = {}
    if (credentials.webhookUrl !== undefined) kept.webhookUrl = credentials.webhookUrl
    if (credentials.channel !== undefined) kept.channel = credentials.channel
    if (credentials.deviceTokens !== undefined) kept.deviceTokens = [...new Set(credentials.deviceTokens as string[])]
    const entry =
      at === -1
        ? { providerId, integrationIdentifier: integration.identifier, _integrationId: integration._id, credentials: kept }
        : { ...channels[at], credentials: { ...channels[at]!.credentials, ...kept } }
    const next: Json = { ...subscriber, channels: at === -1 ? [...channels, entry] : channels.map((c, i) => (i === at ? entry : c)), updatedAt: new Date().toISOString() }
    subscribers.set(next.subscriberId, next)
    return { ...next, ...STAMP }
  }),
)

app.get(
  '/v2/subscribers/:subscriberId',
  handle('getSubscriber', (req) => {
    const subscriber = subscribers.get(req.params.subscriberId as string)
    if (!subscriber) throw new HttpError(404, 'subscriber not found')
    return { ...subscriber, ...STAMP }
  }),
)

app.post(
  '/v1/integrations/:integrationId/set-primary',
  handle('setPrimaryIntegration', (req) => {
    const integration = integrations.get(req.params.integrationId as string)
    if (!integration) throw new HttpError(404, 'integration not found')
    for (const other of integrations.values()) if (other.channel === integration.channel) other.primary = other === integration
    const { priority: _p, createdAt: _c, ...visible } = integration
    return { ...visible, ...STAMP, credentials: {} }
  }),
)

app.get(
  '/v1/channel-connections',
  handle('listChannelConnections', (req) => {
    const query = (req as Request & { validated: Json }).validated
    const matching = connections.filter((c) => (query.subscriberId === undefined || c.subscriberId === query.subscriberId) && (query.channel === undefined || c.channel === query.channel))
    const limit = Number(query.limit ?? 10)
    const start = query.after ? matching.findIndex((c) => c.identifier === query.after) + 1 : 0
    const page = matching.slice(start, start + limit).map(({ _id, ...visible }) => visible)
    const last = page[page.length - 1]
    return { data: page, next: start + limit < matching.length && last ? (last.identifier as string) : null, previous: null, totalCount: matching.length, totalCountCapped: false }
  }),
)

app.post(
  '/v1/subscribers/:subscriberId/messages/mark-as',
  handle('markMessagesAs', (req) => {
    const subscriber = subscribers.get(req.params.subscriberId as string)
    if (!subscriber) throw new HttpError(404, 'subscriber not found')
    const { messageId, markAs } = req.body as Json
    const ids: string[] = Array.isArray(messageId) ? messageId : String(messageId).split(',')
    return ids.map((id) => {
      const message = messages.get(id)
      if (!message || message._subscriberId !== subscriber._id) throw new HttpError(404, `message ${id} not found`)
      const field = markAs === 'read' || markAs === 'unread' ? 'read' : 'seen'
      const next = { ...message, [field]: markAs === 'read' || markAs === 'seen' }
      messages.set(id, next)
      return { ...next, ...STAMP }
    })
  }),
)

app.listen(port, '127.0.0.1', () => console.log(`naive express listening on ${port}`))
