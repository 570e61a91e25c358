import { createHash } from 'node:crypto'
import type { RequestHandler } from 'express'
import type { Logger } from './logger.ts'

/** One line per request. The tenant appears as a short hash of its key, never the key itself. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (!logger.enabled('info')) return next()
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const auth = req.headers.authorization
      logger.info('request', {
        method: req.method,
        path: req.path,
        operationId: res.locals.operationId,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        tenant: auth ? createHash('sha256').update(auth).digest('hex').slice(0, 8) : undefined,
      })
    })
    next()
  }
}
