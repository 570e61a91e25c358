import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Loading and compiling the contract takes a moment on a shared 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
})
