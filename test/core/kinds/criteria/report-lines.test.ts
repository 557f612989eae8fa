import { describe, expect, test } from 'vitest'
import { PLAIN } from '../../../../src/core/common/colors.js'
import type { PlannedCase } from '../../../../src/core/contract/results.js'
import { criteriaKind } from '../../../../src/core/kinds/criteria/index.js'

// The rubric block's line of failed and uncertain ratings, counted from the plan's cases.
const lines = (cases: readonly PlannedCase[]) => criteriaKind.present.reportLines(cases, undefined as never, PLAIN)

const planned = (id: string, ratings: Record<string, string> | undefined): PlannedCase => ({
  id,
  split: 'development',
  status: 'accepted',
  reason: '',
  detail: ratings === undefined ? {} : { ratings },
})

describe('the criteria line of the rubric block', () => {
  test('counts failed and uncertain ratings per criterion, the criteria in the order first rated', () => {
    const cases = [
      planned('a', { command: 'meets', support: 'meets', verification: 'meets' }),
      planned('b', { support: 'does_not_meet', command: 'meets', verification: 'uncertain' }),
      planned('c', { command: 'does_not_meet', support: 'uncertain', verification: 'meets' }),
      planned('d', { support: 'does_not_meet' }),
    ]
    // `command` is listed first although its first failure comes after `support`'s.
    expect(lines(cases)).toEqual(['    criteria   command: 1 failed · support: 2 failed, 1 uncertain · verification: 1 uncertain'])
  })

  test('says so when every rating meets, and is left out when no case has ratings', () => {
    expect(lines([planned('a', { command: 'meets' }), planned('b', { command: 'meets', support: 'meets' })])).toEqual([
      '    criteria   no failed or uncertain ratings',
    ])
    expect(lines([planned('a', undefined), planned('b', undefined)])).toEqual([])
  })
})
