// Generates a criteria fixture of n cases, and a plain Vitest test file declaring the same tests
// with the same outcomes, so the two can be timed against each other.
import { createHash } from 'node:crypto'
import { mkdir, open, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const DOCUCTL = new URL('../../fixtures/docuctl-rollback/', import.meta.url)

/**
 * The outcome mix: mostly accepted, with some rejected and some pending, as a reviewed
 * benchmark would have. Index → 'accepted' | 'rejected' | 'pending'.
 */
export function outcomeOf(index) {
  if (index % 100 === 7) return 'rejected'
  if (index % 100 === 42) return 'pending'
  return 'accepted'
}

/**
 * Writes a criteria fixture of n cases to dir. The benchmarks fingerprint with the build; a test
 * passes the fingerprint of the sources (`options.fingerprint`), so that it needs no build. A test
 * may give its own outcome mix (`options.outcomeOf`, index → outcome) and put cases in a split
 * (`options.splitOf`, index → 'development' | 'held_out' | undefined for the default), and fail
 * further criteria (`options.failsOf`, (index, criterion id) → whether the review rates it does_not_meet).
 */
export async function generateFixture(dir, n, options = {}) {
  const fingerprint = options.fingerprint ?? (await import('../../dist/index.js')).fingerprint
  const rubricBytes = await readFile(new URL('rubric.json', DOCUCTL))
  const sourceBytes = await readFile(new URL('source.txt', DOCUCTL))
  const rubric = JSON.parse(rubricBytes.toString())
  const sha = (bytes) => createHash('sha256').update(bytes).digest('hex')
  const source_sha256 = sha(sourceBytes)
  const rubric_sha256 = sha(rubricBytes)
  const cases = []
  const reviews = []
  for (let index = 0; index < n; index++) {
    const id = `case-${String(index).padStart(6, '0')}`
    const answer = {
      text: `Answer ${index}: obtain release approval, confirm staging, run \`docuctl releases rollback r41 --environment staging\`; it does not restore database contents. After the rollback, check service health.`,
      citation: 'Fictional docuctl 3 guide: staging rollback to r41',
    }
    const outcome = (options.outcomeOf ?? outcomeOf)(index)
    const split = options.splitOf?.(index)
    let review = null
    if (outcome !== 'pending' || index % 2 === 0) {
      const judgements = {}
      for (const criterion of rubric.criteria) {
        const failed = (outcome === 'rejected' && criterion.id === 'verification') || (options.failsOf?.(index, criterion.id) ?? false)
        const uncertain = !failed && outcome === 'pending' && criterion.id === 'support'
        judgements[criterion.id] = {
          rating: failed ? 'does_not_meet' : uncertain ? 'uncertain' : 'meets',
          reason: failed ? 'The health check is missing.' : uncertain ? 'Ambiguous wording.' : 'The requirement is met.',
          reference_quote: criterion.reference_quote,
          answer_span: failed ? '' : 'check service health',
        }
      }
      review = { answer_id: id, answer_sha256: fingerprint(answer), source_sha256, rubric_sha256, judgements }
      reviews.push(review)
    }
    cases.push({
      id,
      ...(split === undefined ? {} : { split }),
      input: { question: rubric.task, answer },
      expected: { acceptable: true, source_sha256, rubric_sha256, review_sha256: fingerprint(review) },
    })
  }
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'rubric.json'), rubricBytes)
  await writeFile(join(dir, 'source.txt'), sourceBytes)
  // Written a slice at a time: past about 400k cases a file's text is longer than one JavaScript string can be.
  await writeDocument(join(dir, 'cases.json'), `{"name":${JSON.stringify(`bench-${n}`)},"task":"bench","cases":[`, cases)
  await writeDocument(join(dir, 'annotations.json'), '{"origin":"generated for the benchmark","reviews":[', reviews)
}

/** Writes `head`, the items as a JSON array's elements, and `]}`, the same text JSON.stringify would give. */
async function writeDocument(path, head, items) {
  const file = await open(path, 'w')
  try {
    await file.write(head)
    for (let start = 0; start < items.length; start += 10_000) {
      const slice = JSON.stringify(items.slice(start, start + 10_000)).slice(1, -1)
      await file.write(start === 0 ? slice : `,${slice}`)
    }
    await file.write(']}')
  } finally {
    await file.close()
  }
}

/**
 * The floor: the same tests, names and outcomes, declared by a plain test file from its data in
 * the fastest plain way (JSON.parse of a string). Failures throw errors without stack frames, as
 * the plugin's do, so that both pay the same to report them.
 */
export async function generatePlainTests(file, n) {
  const rows = Array.from({ length: n }, (_, index) => [`case-${String(index).padStart(6, '0')}`, outcomeOf(index)])
  const code = `import { describe, test } from 'vitest'
const rows = JSON.parse(${JSON.stringify(JSON.stringify(rows))})
const fail = (message) => () => {
  const error = new Error(message)
  error.stack = 'Error: ' + message
  throw error
}
describe('development', () => {
  for (const [id, outcome] of rows) {
    if (outcome === 'accepted') test(id, () => {})
    else if (outcome === 'rejected') test(id, fail('rejected: verification'))
    else test.todo(id + ' — pending')
  }
})
`
  await writeFile(file, code)
}
