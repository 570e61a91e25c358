/**
 * What a port answers: the in-memory adapters answer at once, a shared one (Redis) later. Callers
 * `await` it, which costs the in-memory adapters one microtask.
 */
export type MaybePromise<T> = T | Promise<T>
