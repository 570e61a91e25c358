/** A mistake in how the CLI was called (flag, env variable or config file): exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The help that answers the mistake: a command's own (`verify --help`) where it has one. */
    readonly help = 'novu-mock --help',
  ) {
    super(message)
  }
}
