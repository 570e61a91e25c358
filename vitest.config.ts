import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Tests import the package root by its name, as a user's suite does; they run its sources
  // (tsconfig.json maps the name the same way). test/packaging/ checks the packed package itself.
  resolve: { alias: [{ find: /^novu-mock$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Loading and compiling the contract takes a moment on a shared 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
