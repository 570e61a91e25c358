import { existsSync } from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'
import { browserTestsSkipped, CHROMIUM } from './test/helpers/chromium.ts'

const skipped = browserTestsSkipped(process.env, existsSync(CHROMIUM))
if (skipped) console.warn(skipped)

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: skipped ? [...configDefaults.exclude, 'test/browser/**'] : configDefaults.exclude,
    // Loading and compiling the contract takes a moment on a shared 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
