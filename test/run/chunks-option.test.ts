import { describe, expect, test } from 'vitest'
import { resolveOptions } from '../../src/run/options.js'

describe('rubric({ chunks })', () => {
  test('is off unless given, and keeps the size it is given', () => {
    expect(resolveOptions().chunks).toBeUndefined()
    expect(resolveOptions({ chunks: { size: 1000 } }).chunks).toEqual({ size: 1000 })
  })

  test('a size that is no whole number of at least one case is an error that names the option', () => {
    expect(() => resolveOptions({ chunks: { size: 0 } })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › chunks › size: the value is too small.
        expected: at least 1
        found:    0
        fix:      see the options of rubric() in docs/plugin.md: include, exclude, pending ("todo", "fail" or { max: n }), decisionRecord, expect ("acceptance" or "record"), reviewers ({ min: n }), agreement ({ min: alpha }), judges ({ <name>: { minKappa, minCases (≥ 10), maxFalseAccepts (a count, or { rate }), fixtures (globs) } }), compare ({ against, split, margin, fixtures, judge } or a list of them), estimate ({ judge, min, split, fixtures } or a list of them), seed, marginGate ("point" or "lower-bound"), reporter (true, false or { outputFile, githubSummary, htmlReport, reportUrl }), cache, matchers, chunks ({ size: n }, n ≥ 1 cases per module).]
    `)
    expect(() => resolveOptions({ chunks: { size: 2.5 } })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › chunks › size: the value has the wrong type.
        expected: an integer
        found:    the number 2.5
        fix:      see the options of rubric() in docs/plugin.md: include, exclude, pending ("todo", "fail" or { max: n }), decisionRecord, expect ("acceptance" or "record"), reviewers ({ min: n }), agreement ({ min: alpha }), judges ({ <name>: { minKappa, minCases (≥ 10), maxFalseAccepts (a count, or { rate }), fixtures (globs) } }), compare ({ against, split, margin, fixtures, judge } or a list of them), estimate ({ judge, min, split, fixtures } or a list of them), seed, marginGate ("point" or "lower-bound"), reporter (true, false or { outputFile, githubSummary, htmlReport, reportUrl }), cache, matchers, chunks ({ size: n }, n ≥ 1 cases per module).]
    `)
    expect(() => resolveOptions({ chunks: 1000 } as never)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › chunks: the value has the wrong type.
        expected: an object
        found:    the integer 1000
        fix:      see the options of rubric() in docs/plugin.md: include, exclude, pending ("todo", "fail" or { max: n }), decisionRecord, expect ("acceptance" or "record"), reviewers ({ min: n }), agreement ({ min: alpha }), judges ({ <name>: { minKappa, minCases (≥ 10), maxFalseAccepts (a count, or { rate }), fixtures (globs) } }), compare ({ against, split, margin, fixtures, judge } or a list of them), estimate ({ judge, min, split, fixtures } or a list of them), seed, marginGate ("point" or "lower-bound"), reporter (true, false or { outputFile, githubSummary, htmlReport, reportUrl }), cache, matchers, chunks ({ size: n }, n ≥ 1 cases per module).]
    `)
    expect(() => resolveOptions({ chunks: { count: 4 } } as never)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: rubric() options › chunks › count: unknown key "count".
        expected: one of "size"
        fix:      see the options of rubric() in docs/plugin.md.]
    `)
  })
})
