import { describe, expect, test } from 'vitest'
import { resolveOptions } from '../../src/run/options.js'

describe('an unknown key in the rubric() options', () => {
  test('is named as unknown, with the key it most likely meant, before any value it leaves missing', () => {
    expect(() => resolveOptions({ judges: { j: { minkappa: 0.5, minCases: 10 } } } as never)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › judges › j › minkappa: unknown key "minkappa" (did you mean "minKappa"?).
        expected: one of "minKappa", "minCases", "maxFalseAccepts", "fixtures"
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

  test('in the judge gate’s new keys: fixtures, maxFalseAccepts and its rate', () => {
    expect(() => resolveOptions({ judges: { j: { minKappa: 0.5, minCases: 10, fixture: 'fixtures/*' } } } as never)).toThrow(
      'rubric() options › judges › j › fixture: unknown key "fixture" (did you mean "fixtures"?).',
    )
    expect(() => resolveOptions({ judges: { j: { minKappa: 0.5, minCases: 10, maxFalseAccept: 1 } } } as never)).toThrow(
      'rubric() options › judges › j › maxFalseAccept: unknown key "maxFalseAccept" (did you mean "maxFalseAccepts"?).',
    )
    expect(() => resolveOptions({ judges: { j: { minKappa: 0.5, minCases: 10, maxFalseAccepts: { rates: 0.1 } } } } as never)).toThrow(
      'rubric() options › judges › j › maxFalseAccepts › rates: unknown key "rates" (did you mean "rate"?).',
    )
  })
})

describe('the compare gate’s options', () => {
  test('refuse unknown keys, in one gate and in a list of them, with the key they most likely meant', () => {
    expect(() => resolveOptions({ compare: { againts: 'fixtures/a', margin: 0.05 } } as never)).toThrow(
      'rubric() options › compare › againts: unknown key "againts" (did you mean "against"?).',
    )
    expect(() =>
      resolveOptions({
        compare: [
          { against: 'fixtures/a', margin: 0.05 },
          { against: 'fixtures/b', margin: 0.05, fixture: 'x' },
        ],
      } as never),
    ).toThrow('rubric() options › compare[1] › fixture: unknown key "fixture" (did you mean "fixtures"?).')
  })

  test('one gate or a list; split defaults to held-out; a margin is a proportion, not points', () => {
    expect(resolveOptions({ compare: { against: './fixtures/a/', margin: 0.05 } }).compare).toEqual([
      { against: 'fixtures/a', split: 'held_out', margin: 0.05, fixtures: undefined },
    ])
    expect(resolveOptions({}).compare).toEqual([])
    expect(() => resolveOptions({ compare: { against: 'fixtures/a', margin: 5 } })).toThrow(
      'rubric() options › compare › margin: the value breaks a rule of the format.\n  expected: a proportion from 0 to 1 (0.05 is 5 points)',
    )
    expect(() => resolveOptions({ compare: { against: 'fixtures/a', margin: 0.05, split: 'all' as never } })).toThrow(
      'expected: one of "held_out", "development"',
    )
  })
})

describe('maxFalseAccepts', () => {
  test('is a whole number (a count) or { rate } from 0 to 1; a fraction as a bare number is refused, not read as a rate', () => {
    expect(resolveOptions({ judges: { j: { minKappa: 0, minCases: 10, maxFalseAccepts: 2 } } }).judges?.['j']?.maxFalseAccepts).toBe(2)
    expect(resolveOptions({ judges: { j: { minKappa: 0, minCases: 10, maxFalseAccepts: { rate: 0.05 } } } }).judges?.['j']?.maxFalseAccepts).toEqual({
      rate: 0.05,
    })
    expect(() => resolveOptions({ judges: { j: { minKappa: 0, minCases: 10, maxFalseAccepts: 0.05 } } })).toThrow(
      'rubric() options › judges › j › maxFalseAccepts: the value breaks a rule of the format.\n  expected: a whole number of false accepts (at least 0), or { rate: r } with r from 0 to 1',
    )
    expect(() => resolveOptions({ judges: { j: { minKappa: 0, minCases: 10, maxFalseAccepts: -1 } } })).toThrow('expected: at least 0')
    expect(() => resolveOptions({ judges: { j: { minKappa: 0, minCases: 10, maxFalseAccepts: { rate: 1.5 } } } })).toThrow(
      'rubric() options › judges › j › maxFalseAccepts › rate: the value breaks a rule of the format.\n  expected: a rate from 0 to 1, a share of the judgements the reviewers rated does_not_meet',
    )
  })
})
