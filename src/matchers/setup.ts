/**
 * Registers the rubric matchers with Vitest's `expect`: list `vitest-rubric/setup` in `setupFiles`,
 * or import it from a test or setup file. The only module of the package with a side effect.
 */
import { expect } from 'vitest'
import * as matchers from './index.js'

expect.extend(matchers)

// Re-exported so that importing this entry also brings in the matcher typings.
export type * from './types.js'
