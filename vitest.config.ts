import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // End-to-end tests start Vitest itself, some more than once: on a busy 2-core machine that
    // takes longer than the default 5 s, which is no sign of a defect.
    testTimeout: 60_000,
    // The type tests (test/**/*.test-d.ts) are compiled by `tsc --noEmit` in `npm test`; running
    // them again through Vitest's typecheck would check the same types twice.
  },
})
