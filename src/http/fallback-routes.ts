import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { Express, NextFunction, Request, Response } from 'express'
import { ApiError } from '../answer/api-error.ts'
import { routeNotFound } from '../core/dispatcher.ts'
import { checkedErrorAnswer } from '../core/answers/error-answer.ts'
import type { ResponseCheck } from '../core/answers/response-check.ts'
import { sendJson } from './respond.ts'

/**
 * What no route answers: an unknown path or method is the service's 404 (`Cannot GET /x`), and an
 * error express itself raised keeps its 4xx; both ErrorDto.
 */
export function mountFallbacks(app: Express, errorDto: ValidateFunction, check: ResponseCheck): void {
  const validatorOf = () => errorDto
  app.use((req: Request, res: Response) => {
    sendJson(res, checkedErrorAnswer(routeNotFound(req.method, req.originalUrl), lineOf(req), validatorOf, check))
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status
    const known = typeof status === 'number' && status >= 400 && status < 500
    const apiError = known ? new ApiError(status, 'BAD_REQUEST', (error as Error).message) : error
    sendJson(res, checkedErrorAnswer(apiError, lineOf(req), validatorOf, check))
  })
}

const lineOf = (req: Request) => ({ method: req.method, url: req.originalUrl })
