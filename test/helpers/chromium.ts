/** Debian's chromium, which the browser tests drive; `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Why the browser tests (test/browser/) are left out of this run, or undefined when they run. They
 * run wherever Chromium is installed, and always under CI, where a missing browser must fail them.
 */
export function browserTestsSkipped(env: NodeJS.ProcessEnv, chromiumInstalled: boolean): string | undefined {
  if (chromiumInstalled || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return undefined
  return `test/browser skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium; with CI set they run, and fail without it)`
}
