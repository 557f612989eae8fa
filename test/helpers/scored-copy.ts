import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fingerprint, sha256Hex } from '../../src/core/json/canonical-json.js'
import type { BaselineReview, DebateReview, ScoredCase, System } from '../../src/core/kinds/scored/schemas.js'
import { copyFixture, jsonFiles, ROOT, type JsonFiles } from './fixture-copy.js'

export const DEBATE = resolve(ROOT, 'fixtures/debate-benchmark')

export interface CasesJson {
  name: string
  split?: string
  cases: ScoredCase[]
}

export type ReviewJson = (DebateReview | BaselineReview) & Record<string, unknown>

export interface AnnotationsJson {
  origin: string
  reviews: ReviewJson[]
}

/** A private copy of the debate benchmark that a test may edit; removed when the test ends. */
export interface ScoredCopy extends JsonFiles<CasesJson, AnnotationsJson> {
  /** Edits one review and, unless told otherwise, acknowledges the new revision in its case. */
  editReview<S extends System>(
    caseId: string,
    system: S,
    edit: (review: S extends 'debate' ? DebateReview : BaselineReview) => void,
    acknowledge?: boolean,
  ): Promise<void>
  /** Records the current revision of a case's review in the case (an acknowledged edit). */
  acknowledge(caseId: string, system: System): Promise<void>
  /** Binds a review to the current rubric, case spec and output, then acknowledges it (a re-review). */
  rebind(caseId: string, system: System): Promise<void>
}

export async function copyDebate(): Promise<ScoredCopy> {
  const { dir } = await copyFixture(DEBATE)
  const files = jsonFiles<CasesJson, AnnotationsJson>(dir)
  const { readJson } = files
  const findCase = (cases: CasesJson, caseId: string) => {
    const entry = cases.cases.find((item) => item.id === caseId)
    if (entry === undefined) throw new Error(`no case ${caseId}`)
    return entry
  }
  const findReview = (annotations: AnnotationsJson, caseId: string, system: System) =>
    annotations.reviews.find((review) => review.case_id === caseId && review.system === system)
  const copy: ScoredCopy = {
    ...files,
    async editReview(caseId, system, edit, acknowledge = true) {
      await copy.editAnnotations((annotations) => {
        const review = findReview(annotations, caseId, system)
        if (review === undefined) throw new Error(`no ${system} review of ${caseId}`)
        edit(review as never)
      })
      if (acknowledge) await copy.acknowledge(caseId, system)
    },
    async acknowledge(caseId, system) {
      const review = findReview(await readJson<AnnotationsJson>('annotations.json'), caseId, system) ?? null
      await copy.editCases((cases) => {
        findCase(cases, caseId).expected[`${system}_review_sha256`] = fingerprint(review)
      })
    },
    async rebind(caseId, system) {
      const theCase = findCase(await readJson<CasesJson>('cases.json'), caseId)
      const rubricSha256 = sha256Hex(await readFile(join(dir, 'evaluation_rubric.json')))
      await copy.editReview(caseId, system, (review) => {
        review.rubric_sha256 = rubricSha256
        review.spec_sha256 = fingerprint(theCase.spec)
        review.output_sha256 = fingerprint(theCase.outputs[system])
      })
    },
  }
  return copy
}

/** Removes a case's review of one system, and records the withdrawal in the case when asked. */
export async function withdrawReview(copy: ScoredCopy, caseId: string, system: System, acknowledge: boolean): Promise<void> {
  await copy.editAnnotations((annotations) => {
    annotations.reviews = annotations.reviews.filter((review) => !(review.case_id === caseId && review.system === system))
  })
  if (acknowledge) await copy.acknowledge(caseId, system)
}

/** Revises the rubric's notes (a new revision that changes no rule); returns its new SHA-256. */
export async function reviseRubricNotes(copy: ScoredCopy): Promise<string> {
  const path = join(copy.dir, 'evaluation_rubric.json')
  await writeFile(path, (await readFile(path, 'utf8')).replace('"notes": "', '"notes": "Revised. '))
  return sha256Hex(await readFile(path))
}
