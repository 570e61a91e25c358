/**
 * A rule of the service that a call broke. The rules know nothing of HTTP: the request pipeline
 * answers a `refused` call with the live service's 400, a `missing` record with its 404, a record
 * that `exists` already with its 409 and an `unprocessable` call with its 422 (docs/behaviour.md
 * §2, §11), in the documented error body.
 */
export class RuleBroken extends Error {
  constructor(
    readonly kind: 'refused' | 'missing' | 'exists' | 'unprocessable',
    /** A stable name for logs and tests. */
    readonly code: string,
    message: string,
    /** An `unprocessable` call's problems, one per field, answered as a validation error (docs/behaviour.md §1.2). */
    readonly problems?: readonly string[],
    /** The record an `exists` call met, answered beside the error where the document's 409 body is that record. */
    readonly record?: object,
  ) {
    super(message)
    this.name = 'RuleBroken'
  }
}

export const refused = (code: string, message: string) => new RuleBroken('refused', code, message)
export const missing = (code: string, message: string) => new RuleBroken('missing', code, message)
export const exists = (code: string, message: string, record?: object) => new RuleBroken('exists', code, message, undefined, record)
export const unprocessable = (code: string, message: string) => new RuleBroken('unprocessable', code, message)
/** Fields that break the live service's own checks (not the document's): a 422 `Validation Error` listing them. */
export const invalid = (problems: readonly string[]) => new RuleBroken('unprocessable', 'VALIDATION_ERROR', 'Validation Error', problems)
