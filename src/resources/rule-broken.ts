/**
 * A rule of the service that a call broke. The rules know nothing of HTTP: the request pipeline
 * answers a `refused` call with the live service's 400 and a `missing` record with its 404
 * (docs/behaviour.md §2), in the documented error body.
 */
export class RuleBroken extends Error {
  constructor(
    readonly kind: 'refused' | 'missing',
    /** A stable name for logs and tests. */
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'RuleBroken'
  }
}

export const refused = (code: string, message: string) => new RuleBroken('refused', code, message)
export const missing = (code: string, message: string) => new RuleBroken('missing', code, message)
