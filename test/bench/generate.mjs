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
 * may give its own outcome mix (`options.outcomeOf`, index → outcome; 'unreviewed' for a case with no review) and put cases in a split
 * (`options.splitOf`, index → 'development' | 'held_out' | undefined for the default), and fail
 * further criteria (`options.failsOf`, (index, criterion id) → whether the review rates it does_not_meet).
 */
export async function generateFixture(dir, n, options = {}) {
  const { rubricBytes, sourceBytes, caseOf } = await caseMaker(options)
  const cases = []
  const reviews = []
  for (let index = 0; index < n; index++) {
    const { theCase, review } = caseOf(index)
    if (review !== null) reviews.push(review)
    cases.push(theCase)
  }
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'rubric.json'), rubricBytes)
  await writeFile(join(dir, 'source.txt'), sourceBytes)
  // Written a slice at a time: past about 400k cases a file's text is longer than one JavaScript string can be.
  await writeDocument(join(dir, 'cases.json'), `{"name":${JSON.stringify(`bench-${n}`)},"task":"bench","cases":[`, cases)
  await writeDocument(join(dir, 'annotations.json'), '{"origin":"generated for the benchmark","reviews":[', reviews)
}

/**
 * Writes the same fixture as {@link generateFixture}, in the records layout, record by record: what
 * `convert --to records` makes of it, without the seed documents, which past about 400k cases no
 * JavaScript string can hold.
 */
export async function generateRecordsFixture(dir, n, options = {}) {
  const { bucketOf, bucketsFor, bucketNames } = await import('../../dist/core/store/records.js')
  const { rubricBytes, sourceBytes, caseOf } = await caseMaker(options)
  const buckets = bucketsFor(n)
  const provenance = { replaces: [], save: '000000000000', at: '2026-01-01T00:00:00.000Z', by: 'bench@generate' }
  const records = join(dir, 'records')
  await mkdir(records, { recursive: true })
  await writeFile(join(dir, 'rubric.json'), rubricBytes)
  await writeFile(join(dir, 'source.txt'), sourceBytes)
  await writeFile(join(records, 'layout.json'), `${JSON.stringify({ layout: 'vitest-rubric/records', version: 1, buckets }, null, 2)}\n`)
  await writeFile(join(records, '.gitattributes'), '*.jsonl merge=union\n')
  const style = { indent: 0, ascii: false, newline: false }
  const documents = [
    { doc: 'cases.json', list: 'cases', members: { name: `bench-${n}`, task: 'bench', cases: [] }, style, ...provenance },
    { doc: 'annotations.json', list: 'reviews', members: { origin: 'generated for the benchmark', reviews: [] }, style, ...provenance },
  ]
  await writeFile(join(records, 'documents.jsonl'), documents.map((record) => `${JSON.stringify(record)}\n`).join(''))
  const files = new Map(await Promise.all(bucketNames(buckets).map(async (name) => [name, await open(join(records, name), 'w')])))
  const pending = new Map()
  const flush = async (name) => {
    await files.get(name).write(pending.get(name).join(''))
    pending.set(name, [])
  }
  let reviewed = 0
  try {
    for (let index = 0; index < n; index++) {
      const { theCase, review } = caseOf(index)
      const name = bucketOf(theCase.id, buckets)
      const lines = pending.get(name) ?? []
      pending.set(name, lines)
      lines.push(`${JSON.stringify({ doc: 'cases.json', case: theCase.id, n: index, item: theCase, ...provenance })}\n`)
      if (review !== null) lines.push(`${JSON.stringify({ doc: 'annotations.json', case: theCase.id, n: reviewed++, item: review, ...provenance })}\n`)
      if (lines.length >= 2_000) await flush(name)
    }
    for (const name of pending.keys()) await flush(name)
  } finally {
    for (const file of files.values()) await file.close()
  }
}

/** The generator's rubric and source, and each case (with its review, or `null`) by index. */
async function caseMaker(options) {
  const fingerprint = options.fingerprint ?? (await import('../../dist/index.js')).fingerprint
  const rubricBytes = await readFile(new URL('rubric.json', DOCUCTL))
  const sourceBytes = await readFile(new URL('source.txt', DOCUCTL))
  const rubric = JSON.parse(rubricBytes.toString())
  const sha = (bytes) => createHash('sha256').update(bytes).digest('hex')
  const source_sha256 = sha(sourceBytes)
  const rubric_sha256 = sha(rubricBytes)
  const caseOf = (index) => {
    const id = `case-${String(index).padStart(6, '0')}`
    const answer = {
      text: `Answer ${index}: obtain release approval, confirm staging, run \`docuctl releases rollback r41 --environment staging\`; it does not restore database contents. After the rollback, check service health.`,
      citation: 'Fictional docuctl 3 guide: staging rollback to r41',
    }
    const outcome = (options.outcomeOf ?? outcomeOf)(index)
    const split = options.splitOf?.(index)
    let review = null
    // An unreviewed case has no review; a pending one has an uncertain review on every other case.
    if (outcome !== 'unreviewed' && (outcome !== 'pending' || index % 2 === 0)) {
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
    }
    const theCase = {
      id,
      ...(split === undefined ? {} : { split }),
      input: { question: rubric.task, answer },
      expected: { acceptable: true, source_sha256, rubric_sha256, review_sha256: fingerprint(review) },
    }
    return { theCase, review }
  }
  return { rubricBytes, sourceBytes, caseOf }
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
