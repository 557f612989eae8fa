import { cp, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { scratchDir } from './scratch.js'

export const ROOT = resolve(import.meta.dirname, '../..')
export const DOCUCTL = join(ROOT, 'fixtures/docuctl-rollback')

interface CaseJson {
  id: string
  split?: string
  input: { question: string; answer: { text: string; citation: string } }
  expected: { acceptable: boolean; source_sha256: string; rubric_sha256: string; review_sha256: string }
}
interface ReviewJson {
  answer_id: string
  answer_sha256: string
  source_sha256: string
  rubric_sha256: string
  judgements: Record<string, { rating: string; reason: string; reference_quote: string; answer_span: string }>
}
export interface CasesJson {
  name: string
  task: string
  cases: CaseJson[]
}
export interface AnnotationsJson {
  origin: string
  reviews: ReviewJson[]
}

/** Reads and rewrites the JSON files of a fixture directory a test owns. */
export interface JsonFiles<Cases, Annotations> {
  readonly dir: string
  readJson<T>(file: string): Promise<T>
  writeJson(file: string, value: unknown): Promise<void>
  editCases(edit: (cases: Cases) => void): Promise<void>
  editAnnotations(edit: (annotations: Annotations) => void): Promise<void>
}

/** A private copy of a criteria fixture directory that a test may edit; removed when the test ends. */
export interface FixtureCopy extends JsonFiles<CasesJson, AnnotationsJson> {
  /** Records the current revision of a case's review in the case (an acknowledged edit). */
  acknowledgeReview(caseId: string): Promise<void>
  /** Binds a case's review to the case's current answer (a re-review). */
  rebindAnswer(caseId: string): Promise<void>
}

/** The JSON files of a fixture directory, of any kind. */
export function jsonFiles<Cases, Annotations>(dir: string): JsonFiles<Cases, Annotations> {
  const readJson = async <T>(file: string) => JSON.parse(await readFile(join(dir, file), 'utf8')) as T
  const writeJson = (file: string, value: unknown) => writeFile(join(dir, file), `${JSON.stringify(value, null, 2)}\n`)
  return {
    dir,
    readJson,
    writeJson,
    async editCases(edit) {
      const cases = await readJson<Cases>('cases.json')
      edit(cases)
      await writeJson('cases.json', cases)
    },
    async editAnnotations(edit) {
      const annotations = await readJson<Annotations>('annotations.json')
      edit(annotations)
      await writeJson('annotations.json', annotations)
    },
  }
}

/** A private copy of a fixture, removed when the test ends. */
export async function copyFixture(from: string = DOCUCTL): Promise<FixtureCopy> {
  const dir = await scratchDir('fixture')
  await cp(from, dir, { recursive: true })
  return editableFixture(dir)
}

/** Edits the fixture files of a directory the test owns. */
export function editableFixture(dir: string): FixtureCopy {
  const files = jsonFiles<CasesJson, AnnotationsJson>(dir)
  const { readJson } = files
  const copy: FixtureCopy = {
    ...files,
    async acknowledgeReview(caseId) {
      const annotations = await readJson<AnnotationsJson>('annotations.json')
      const review = annotations.reviews.find((item) => item.answer_id === caseId) ?? null
      await copy.editCases((cases) => {
        const entry = cases.cases.find((item) => item.id === caseId)
        if (entry === undefined) throw new Error(`no case ${caseId}`)
        entry.expected.review_sha256 = fingerprint(review)
      })
    },
    async rebindAnswer(caseId) {
      const cases = await readJson<CasesJson>('cases.json')
      const entry = cases.cases.find((item) => item.id === caseId)
      if (entry === undefined) throw new Error(`no case ${caseId}`)
      await copy.editAnnotations((annotations) => {
        const review = annotations.reviews.find((item) => item.answer_id === caseId)
        if (review === undefined) throw new Error(`no review ${caseId}`)
        review.answer_sha256 = fingerprint(entry.input.answer)
      })
      await copy.acknowledgeReview(caseId)
    },
  }
  return copy
}
