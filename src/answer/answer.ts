/** One way an answer (or a request) breaks the document, as the journal, the proxy and verify report it. */
export type Violation = {
  message: string
  instancePath?: string
  schemaPath?: string
  value?: unknown
}

/** An answer before it is sent: what the handler, a policy or an error made of the call. */
export interface Answer {
  status: number
  body: unknown
  headers?: Record<string, string>
  /** What the contract check found wrong with the answer as the handler made it. */
  violations?: Violation[]
  /** Forced by the Prefer header or a fault rule: the operation did not run, nothing is replayed. */
  forced?: boolean
}

/** Thrown by a handler whose answer is another of its operation's documented answers than the success (a failing health check). */
export class AnsweredOtherwise extends Error {
  constructor(readonly answer: Answer) {
    super(`answered ${answer.status}`)
    this.name = 'AnsweredOtherwise'
  }
}
