import { describe, expect, test } from 'vitest'
import type { RubricPluginOptions } from '../../src/run/options.js'
import { resolveOptions } from '../../src/run/options.js'

/** The message of the refusal, without its hint (the list of every option, the same for each). */
function refusal(options: unknown): string {
  try {
    resolveOptions(options as RubricPluginOptions)
  } catch (error) {
    return (error as Error).message.split('\n  fix:')[0]!
  }
  throw new Error('accepted')
}

describe('a bad value in the rubric() options names what is allowed', () => {
  test('pending: the two words and the { max } form', () => {
    expect(refusal({ pending: 'warn' })).toMatchInlineSnapshot(`
      "rubric() options › pending: the value breaks a rule of the format.
        expected: one of "todo", "fail", or { max: n } with n a whole number of at least 0
        found:    "warn""
    `)
    expect(refusal({ pending: { max: -1 } })).toContain('expected: at least 0')
  })

  test('every option whose value is one of several forms says which, never zod’s "Invalid input"', () => {
    const cases: [unknown, string][] = [
      [{ pending: 3 }, 'one of "todo", "fail", or { max: n } with n a whole number of at least 0'],
      [{ include: 3 }, 'a glob, or a list of globs'],
      [{ exclude: {} }, 'a glob, or a list of globs'],
      [{ judges: { j: { minKappa: 0, minCases: 10, fixtures: 3 } } }, 'a glob, or a list of globs'],
      [{ reporter: 'yes' }, 'true, false, or { outputFile, githubSummary, htmlReport, reportUrl }'],
      [{ reporter: { outputFile: true } }, 'a path relative to the project root, or false for none'],
      [{ reporter: { htmlReport: 1 } }, 'a path relative to the project root, or false for none'],
      [{ reporter: { reportUrl: 'report' } }, 'an absolute URL, such as https://example.com/report.html'],
      [{ agreement: { min: 2 } }, 'a number from -1 to 1'],
      [{ judges: { j: { minKappa: 2, minCases: 10 } } }, 'a number from -1 to 1'],
      [{ judges: { 'a b': { minKappa: 0, minCases: 10 } } }, 'a judge name (the name of its file judges/<name>.json)'],
      [{ compare: 3 }, 'a compare gate { against, margin, split, fixtures, judge }, or a list of them'],
      [{ seed: true }, 'a string or a finite number'],
      [{ marginGate: 'upper' }, 'one of "point", "lower-bound"'],
    ]
    for (const [options, expected] of cases) {
      const message = refusal(options)
      expect(message, JSON.stringify(options)).toContain(`expected: ${expected}`)
      expect(message).not.toMatch(/Invalid input|Invalid key|Too big|Too small|expected: false\n/)
    }
  })
})

describe('judges › minCases', () => {
  test('below 10 is refused, since kappa has no interval below 10 cases and such a gate could never pass', () => {
    expect(refusal({ judges: { j: { minKappa: 0.6, minCases: 5 } } })).toMatchInlineSnapshot(`
      "rubric() options › judges › j › minCases: the value breaks a rule of the format.
        expected: a whole number of at least 10: below 10 cases kappa has no 95% interval, so no lower bound, and the gate could never pass
        found:    5"
    `)
    expect(resolveOptions({ judges: { j: { minKappa: 0.6, minCases: 10 } } }).judges?.['j']?.minCases).toBe(10)
  })
})

describe('estimate', () => {
  test('a min outside 0 to 1, a missing judge, a bad split or an unknown key is refused, saying what is allowed', () => {
    expect(refusal({ estimate: { judge: 'ix', min: 1.5 } })).toMatchInlineSnapshot(`
      "rubric() options › estimate › min: the value breaks a rule of the format.
        expected: an acceptance rate from 0 to 1 (0.7 is 70%)
        found:    1.5"
    `)
    expect(refusal({ estimate: { min: 0.7 } })).toContain('estimate › judge')
    expect(refusal({ estimate: [{ judge: 'ix', min: 0.7, split: 'test' }] })).toContain('expected: one of "held_out", "development"')
    expect(refusal({ estimate: 'ix' })).toContain('expected: an estimate gate { judge, min, split, fixtures }, or a list of them')
    expect(refusal({ estimate: { judge: 'ix', min: 0.7, minimum: 0.8 } })).toContain('unknown key "minimum"')
  })

  test('one gate or a list, held-out by default, globs trimmed', () => {
    expect(resolveOptions({ estimate: { judge: 'ix', min: 0.7 } }).estimate).toEqual([{ judge: 'ix', split: 'held_out', min: 0.7, fixtures: undefined }])
    expect(resolveOptions({ estimate: [{ judge: 'ix', min: 0.7, split: 'development', fixtures: './fixtures/lab/' }] }).estimate).toEqual([
      { judge: 'ix', split: 'development', min: 0.7, fixtures: ['fixtures/lab'] },
    ])
    expect(resolveOptions({}).estimate).toEqual([])
  })
})

describe('decisionRecord', () => {
  test.each(['cases.json', 'annotations.json', 'rubric.json', 'evaluation_rubric.json', 'sample.json', 'adjudications.json'])(
    '%s, a fixture file, is refused: the record would be written over it',
    (name) => {
      expect(refusal({ decisionRecord: name })).toContain(
        'expected: a file name ending in .json that no fixture file has: the record is written over the file it names',
      )
    },
  )

  test('a file name of its own, or a path, is taken or refused as before', () => {
    expect(resolveOptions({ decisionRecord: 'decisions.lab.json' }).decisionRecord).toBe('decisions.lab.json')
    expect(refusal({ decisionRecord: 'sub/x.json' })).toContain('expected: a file name ending in .json, without a directory')
  })
})

describe('judge names', () => {
  const composed = 'zo\u00eb'
  const decomposed = 'zoe\u0308'

  test('are read in NFC, as the judges files are, so a name typed decomposed gates the same judge', () => {
    const options = resolveOptions({
      judges: { [decomposed]: { minKappa: 0.6, minCases: 10 } },
      compare: { against: 'baseline', margin: 0.05, judge: decomposed },
      estimate: { judge: decomposed, min: 0.7 },
    })
    expect(Object.keys(options.judges ?? {})).toEqual([composed])
    expect(options.compare[0]?.judge).toBe(composed)
    expect(options.estimate[0]?.judge).toBe(composed)
  })

  test('two keys of judges that are one name after NFC normalisation are refused', () => {
    expect(refusal({ judges: { [composed]: { minKappa: 0.6, minCases: 10 }, [decomposed]: { minKappa: 0.2, minCases: 10 } } })).toContain(
      `expected: a judge name no other key has: "${decomposed}" is "${composed}" written with other code points (equal after Unicode NFC normalisation), so both name judges/${composed}.json`,
    )
  })
})

describe('globs', () => {
  test('a glob reaching outside the project root is refused at once, in include, exclude and a gate', () => {
    const outside = 'expected: a glob relative to the project root that stays inside it (no ".." segment): a fixture outside the project is never read'
    expect(refusal({ include: ['../**'] })).toContain(outside)
    expect(refusal({ include: 'fixtures/../../other/**' })).toContain(outside)
    expect(refusal({ exclude: '..' })).toContain(outside)
    expect(refusal({ estimate: { judge: 'ix', min: 0.5, fixtures: '../x' } })).toContain(outside)
    expect(resolveOptions({ include: ['fixtures/**', 'more..fixtures/*'] }).include).toEqual(['fixtures/**', 'more..fixtures/*'])
  })
})
