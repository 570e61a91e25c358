import type { ValidateFunction } from 'ajv/dist/2020.js'
import type { Express, NextFunction, Request, Response } from 'express'
import { ApiError } from '../answer/api-error.ts'
import { errorAnswer, type ErrorLine } from '../core/error-answer.ts'
import { checkedAnswer, type Answer, type ResponseCheck } from '../core/check-answer.ts'
import { sendJson } from './respond.ts'

/**
 * What no operation answers: an unknown path or method is the service's 404 (`Cannot GET /x`),
 * and an error express itself raised (a malformed path encoding) keeps its 4xx; both ErrorDto.
 */
export function mountFallbacks(app: Express, errorDto: ValidateFunction, check: ResponseCheck): void {
  app.use((req: Request, res: Response) => {
    sendJson(res, errorDtoAnswer(new ApiError(404, 'ROUTE_NOT_FOUND', `Cannot ${req.method} ${req.originalUrl}`), lineOf(req), errorDto, check))
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status
    const known = typeof status === 'number' && status >= 400 && status < 500
    const apiError = known ? new ApiError(status, 'BAD_REQUEST', (error as Error).message) : error
    sendJson(res, errorDtoAnswer(apiError, lineOf(req), errorDto, check))
  })
}

/** The ErrorDto answer to `error`, for a request no operation answers. */
export function errorDtoAnswer(error: unknown, line: ErrorLine, errorDto: ValidateFunction, check: ResponseCheck): Answer {
  return checkedAnswer(errorAnswer(error, line, check), errorDto, line.url, check)
}

const lineOf = (req: Request) => ({ method: req.method, url: req.originalUrl })
