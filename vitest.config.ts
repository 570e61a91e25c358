import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { browserTestsSkipped, CHROMIUM } from './test/helpers/chromium.ts'
import { nginxTestsSkipped } from './test/helpers/nginx.ts'
import { redisTestsSkipped } from './test/helpers/redis-server.ts'

const skipped = browserTestsSkipped(process.env, existsSync(CHROMIUM))
if (skipped) console.warn(skipped)
const redisSkipped = redisTestsSkipped()
if (redisSkipped) console.warn(redisSkipped)
const nginxSkipped = nginxTestsSkipped()
if (nginxSkipped) console.warn(nginxSkipped)

export default defineConfig({
  // Tests import the package root by its name, as a user's suite does; they run its sources
  // (tsconfig.json maps the name the same way). test/packaging/ checks the packed package itself.
  resolve: { alias: [{ find: /^novu-mock$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  test: {
    // Unit tests stand beside what they pin; black-box suites (HTTP, SDK, browser, packaging) are in test/.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: skipped ? [...configDefaults.exclude, 'test/browser/**'] : configDefaults.exclude,
    // Loading and compiling the contract takes a moment on a shared 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
