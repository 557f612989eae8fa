import { cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadFixture } from '../../../src/core/registry.js'
import { judgeDesign } from '../../../src/core/sample/judge-design.js'
import { runCli } from '../../helpers/cli.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** A judgement of every criterion: `meets` with the confidence given, unless `change` says otherwise for one. */
function labels(confidence: number | undefined, change: Record<string, { rating?: string; confidence?: number | undefined }> = {}) {
  return Object.fromEntries(
    CRITERIA.map((id) => {
      const own = change[id] !== undefined && 'confidence' in change[id] ? change[id].confidence : confidence
      const rating = change[id]?.rating ?? 'meets'
      return [id, { rating, reason: 'Judged.', ...(own === undefined ? {} : { confidence: own }) }]
    }),
  )
}

describe('judgeDesign: what a design drawn by the judge reads of each case', () => {
  test('u is the largest 1 − c over the criteria, 1 for an uncertain rating, a missing confidence or no label; the decision is the stratum', async () => {
    const root = await scratchDir('judge-design')
    await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
    await writeFile(
      join(root, 'labels.json'),
      JSON.stringify({
        complete: labels(0.9, { support: { confidence: 0.7 } }),
        paraphrase: labels(0.95, { verification: { rating: 'does_not_meet', confidence: 0.6 } }),
        negation: labels(0.95, { preconditions: { rating: 'uncertain', confidence: 0.99 } }),
        'wrong-command': labels(0.95, { database_scope: { confidence: undefined } }),
        'uncertain-wording': labels(1),
      }),
    )
    expect((await runCli(['review', 'lab', '--judge', 'kw', '--from', join(root, 'labels.json')], root)).code).toBe(0)
    const design = judgeDesign(await loadFixture('lab', { cwd: root }), 'kw')
    const of = (id: string) => design.cases.get(id)!
    expect(of('complete')).toEqual({ decision: 'accepted', uncertainty: expect.closeTo(0.3, 12), leastSure: { criterion: 'support', confidence: 0.7 } })
    expect(of('paraphrase')).toEqual({ decision: 'rejected', uncertainty: expect.closeTo(0.4, 12), leastSure: { criterion: 'verification', confidence: 0.6 } })
    // An uncertain rating leaves the decision pending and counts as no confidence, whatever it said.
    expect(of('negation')).toEqual({ decision: 'pending', uncertainty: 1, leastSure: { criterion: 'preconditions', confidence: null } })
    expect(of('wrong-command')).toEqual({ decision: 'accepted', uncertainty: 1, leastSure: { criterion: 'database_scope', confidence: null } })
    // Sure of everything: the first criterion in the rubric's order, at u = 0.
    expect(of('uncertain-wording')).toEqual({ decision: 'accepted', uncertainty: 0, leastSure: { criterion: 'command', confidence: 1 } })
    expect(of('not-reviewed')).toEqual({ decision: 'pending', uncertainty: 1, leastSure: { criterion: null, confidence: null } })
    expect(design.unlabelled).toBe(3)
    // Every recorded confidence counts, the uncertain rating's too; wrong-command's database_scope has none.
    expect(design.confidences).toBe(5 + 5 + 5 + 4 + 5)
  })
})
