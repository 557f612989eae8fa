import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/** The output docs/judges.md's `calibrate` section shows for `$ npx vitest-rubric calibrate fixtures/lab`. */
async function documentedOutput(): Promise<string> {
  const doc = await readFile(join(ROOT, 'docs/judges.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## `calibrate`'))
  const block = /```console\n\$ npx vitest-rubric calibrate fixtures\/lab\n([\s\S]*?)```\n/.exec(section)
  if (block === null) throw new Error('docs/judges.md › calibrate: no ```console block running `calibrate fixtures/lab`')
  return block[1]!
}

test("judges.md's calibrate example is what calibrate prints for the fixture it describes", async () => {
  // As the section says: a copy of the bundled fixture, whose seven reviewed cases the judge
  // gpt-judge labelled `meets` throughout but for the four judgements named.
  const root = await scratchDir('calibrate-example')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  const reviewed = ['complete', 'paraphrase', 'negation', 'unsupported-guarantee', 'missing-verification', 'wrong-command', 'uncertain-wording']
  const criteria = ['command', 'preconditions', 'database_scope', 'verification', 'support']
  const failed = new Set(['negation/verification', 'negation/support', 'missing-verification/verification', 'wrong-command/support'])
  const labels = Object.fromEntries(
    reviewed.map((caseId) => [
      caseId,
      Object.fromEntries(
        criteria.map((criterion) => {
          const meets = !failed.has(`${caseId}/${criterion}`)
          return [
            criterion,
            { rating: meets ? 'meets' : 'does_not_meet', reason: `The answer ${meets ? 'meets' : 'does not meet'} ${criterion}.`, answer_span: '' },
          ]
        }),
      ),
    ]),
  )
  await writeFile(join(root, 'labels.json'), JSON.stringify(labels))
  const recorded = await runCli(['review', 'fixtures/lab', '--judge', 'gpt-judge', '--origin', 'gpt-x-2026-10, prompt r3', '--from', 'labels.json'], root)
  expect(recorded.code, recorded.stderr).toBe(0)
  const calibrated = await runCli(['calibrate', 'fixtures/lab'], root)
  expect(calibrated.code, calibrated.stderr).toBe(0)
  expect(calibrated.stdout).toBe(await documentedOutput())
})
