/** A mistake in how the CLI was called (flag, env variable or config file): exit code 2. */
export class UsageError extends Error {}
