/** Work done between two turns of the event loop, at most: another call waits no longer than this for it. */
export const SLICE_MS = 8
/** Steps taken between two looks at the clock, which costs more than a step (a record made, a row indexed). */
const STEPS_PER_LOOK = 32

/** Work as steps: it yields after each (a record made, a row indexed) and returns its result. */
export type Steps<T> = Generator<void, T, void>

/** Work in slices waiting for its next turn, in the order it asked. */
const waiting: (() => void)[] = []

/**
 * The next turn of the event loop in which this work, alone of the work in slices, runs a slice:
 * one slice a turn, in turn. Eight large answers written at once then hold another call back by
 * one slice, not eight (each in the same turn, had each waited for a turn of its own).
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) setImmediate(nextInLine)
  })
}

/** Lets the oldest waiting work run its slice; the next one's turn is the loop's next (an immediate set in one runs in the next). */
function nextInLine(): void {
  waiting.shift()!()
  if (waiting.length > 0) setImmediate(nextInLine)
}

/** Runs every step at once: for work nothing else waits on (a start-up, a CLI command). */
export function toEnd<T>(steps: Steps<T>): T {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value
}

/**
 * Runs the steps in slices of about SLICE_MS, each in its own turn of the event loop, so that a
 * large tenant made or imported for one caller leaves every other call answered meanwhile
 * (docs/behaviour.md §6). Steps that each cost a sizeable fraction of a millisecond (a batch
 * of JSON parsed) look at the clock after every one: `stepsPerLook` 1.
 */
export async function inSlices<T>(steps: Steps<T>, stepsPerLook = STEPS_PER_LOOK): Promise<T> {
  let sliceEnds = performance.now() + SLICE_MS
  for (let taken = 1; ; taken++) {
    const step = steps.next()
    if (step.done) return step.value
    if (taken % stepsPerLook === 0 && performance.now() > sliceEnds) {
      await nextTurn()
      sliceEnds = performance.now() + SLICE_MS
    }
  }
}

/** The steps, `check` called before each: it throws to end them (a file closed meanwhile). */
export function* checkedSteps(steps: Steps<void>, check: () => void): Steps<void> {
  check()
  for (let step = steps.next(); !step.done; step = steps.next()) {
    yield
    check()
  }
}

/**
 * The values `steps` gives (chunks of an answer), in slices of about SLICE_MS: the work of making
 * them and of whoever takes them (writing each out) counts, and the next turn of the event loop
 * comes between two slices. Asked for one at a time, so a reader that takes them slowly holds
 * only what it has not yet taken.
 */
export async function* valuesInSlices<T>(steps: Iterable<T>): AsyncGenerator<T, void, void> {
  let sliceEnds = performance.now() + SLICE_MS
  for (const value of steps) {
    yield value
    if (performance.now() > sliceEnds) {
      await nextTurn()
      sliceEnds = performance.now() + SLICE_MS
    }
  }
}
