import { describe, expect, test } from 'vitest'
import { resolveOptions } from '../../src/plugin/options.js'

describe('an unknown key in the rubric() options', () => {
  test('is named as unknown, with the key it most likely meant, before any value it leaves missing', () => {
    expect(() => resolveOptions({ judges: { j: { minkappa: 0.5, minCases: 3 } } } as never)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › judges › j › minkappa: unknown key "minkappa" (did you mean "minKappa"?).
        expected: one of "minKappa", "minCases"
        fix:      write "minKappa"; see the options of rubric() in docs/plugin.md.]
    `)
  })

  test('at the top level, inside a union and in a nested object; a key like no other gets no guess', () => {
    expect(() => resolveOptions({ seeed: 1 } as never)).toThrow('rubric() options › seeed: unknown key "seeed" (did you mean "seed"?).')
    expect(() => resolveOptions({ reporter: { outputfile: 'x.json' } } as never)).toThrow(
      'rubric() options › reporter › outputfile: unknown key "outputfile" (did you mean "outputFile"?).',
    )
    expect(() => resolveOptions({ chunks: { sizes: 4 } } as never)).toThrow('rubric() options › chunks › sizes: unknown key "sizes" (did you mean "size"?).')
    expect(() => resolveOptions({ chunks: { count: 4 } } as never)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › chunks › count: unknown key "count".
        expected: one of "size"
        fix:      see the options of rubric() in docs/plugin.md.]
    `)
  })
})
