/**
 * `run` at most once per `intervalMs`, however often it is asked for: asked during a run or
 * within the interval, it runs once more when both are over. `{ now: true }` (the user's own
 * action) skips the wait, never a run in flight.
 */
export function throttled(run, intervalMs) {
  let last = -Infinity
  let timer
  let running = false
  let again
  const fire = async () => {
    timer = undefined
    running = true
    last = performance.now()
    try {
      await run()
    } finally {
      running = false
      if (again) {
        const options = again
        again = undefined
        request(options)
      }
    }
  }
  const request = ({ now = false } = {}) => {
    if (running) return void (again = { now: now || Boolean(again?.now) })
    if (timer !== undefined && !now) return
    clearTimeout(timer)
    timer = setTimeout(fire, now ? 0 : Math.max(0, last + intervalMs - performance.now()))
  }
  return request
}
