// The bundled fixtures as a project using the plugin would run them: `npm run fixtures`.
// Rejected and refused cases are failing tests, so this run fails by design.
import { defineConfig } from 'vitest/config'
import { rubric } from 'vitest-rubric/plugin'

export default defineConfig({
  plugins: [rubric({ include: 'fixtures/*' })],
  test: { include: [] },
})
