import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { Express, NextFunction, Request, Response } from 'express'
import { ApiError } from '../answer/api-error.ts'
import { errorAnswer } from '../core/error-answer.ts'
import { checkedAnswer, type ResponseCheck } from '../core/check-answer.ts'
import { sendJson } from './respond.ts'

/**
 * What no operation answers: an unknown path or method is the service's 404 (`Cannot GET /x`),
 * and an error express itself raised (a malformed path encoding) keeps its 4xx; both ErrorDto.
 */
export function mountFallbacks(app: Express, errorDto: ValidateFunction, check: ResponseCheck): void {
  app.use((req: Request, res: Response) => {
    const answer = errorAnswer(new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${req.method} ${req.originalUrl}`), lineOf(req), check)
    sendJson(res, checkedAnswer(answer, errorDto, req.originalUrl, check))
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status
    const known = typeof status === 'number' && status >= 400 && status < 500
    const apiError = known ? new ApiError(status, 'BAD_REQUEST', (error as Error).message) : error
    sendJson(res, checkedAnswer(errorAnswer(apiError, lineOf(req), check), errorDto, req.originalUrl, check))
  })
}

const lineOf = (req: Request) => ({ method: req.method, url: req.originalUrl })
