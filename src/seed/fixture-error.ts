/** A fixture that breaks the document: the start stops with the file, record and field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FixtureError'
  }
}
