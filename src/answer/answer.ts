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
  /** `body`'s JSON, when it was made with the body (a handler's `Serialized`): sent and journaled as it is. */
  text?: string
  /** A large body (a handler's `SlicedJson`): checked, then written, in slices between other calls. */
  sliced?: boolean
}

/**
 * A handler's result and its JSON, made together from parts serialized once (a list page from its
 * records' texts): the text is what JSON.stringify gives for the value, byte for byte. The value is
 * still what the answer's check reads, and neither is changed afterwards.
 */
export class Serialized {
  constructor(
    readonly value: unknown,
    readonly text: string,
  ) {}
}

/**
 * A handler's result that may be large (a whole state, the journal): an object whose array members
 * hold its records. It is checked against the document and written out in slices, between turns
 * of the event loop, so other calls are answered meanwhile (docs/behaviour.md §6); its bytes are
 * those of JSON.stringify.
 */
export class SlicedJson {
  constructor(readonly value: object) {}
}

/** Thrown by a handler whose answer is another of its operation's documented answers than the success (a failing health check). */
export class AnsweredOtherwise extends Error {
  constructor(readonly answer: Answer) {
    super(`answered ${answer.status}`)
    this.name = 'AnsweredOtherwise'
  }
}
