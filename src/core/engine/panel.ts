import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { FixtureError } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import { errnoCode, quoteSome, Sha256Schema, own } from '../common/primitives.js'
import { hashOnce, parseJsonFile, type FixtureFileReader, type RawFile } from '../json/read.js'
import { checkFileDocument } from '../json/schema-error.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import { readReviewDocument, type ReviewDocument } from './documents.js'
import type { CaseEntry, ReviewEntry } from './entries.js'
import { checkJudgeConfidences } from './judge-confidences.js'
import { RECORDS_DIR } from '../store/records.js'
import type { ParseMemo } from './parse-memo.js'

/** The directory of a fixture that holds each reviewer's independent reviews, one file per reviewer. */
export const REVIEWS_DIR = 'reviews'
/** The file beside them recording each adoption: which independent reviews it resolved, and who adjudicated. */
export const ADJUDICATIONS_FILE = 'adjudications.json'

/**
 * A reviewer's name, which is also the name of their file: letters and digits of any script (with
 * their combining marks, as in `zoë` written decomposed), `.`, `_` and `-`, not starting with a
 * dot, at most 64 characters. Anything else could name a path outside the directory or a file that
 * some tool hides. A name is compared in NFC ({@link reviewerName}).
 */
export const REVIEWER_NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}._-]{0,63}$/u

/** A name as reviewers are told apart: in NFC, so that `zoë` typed composed or decomposed is one reviewer. */
export function reviewerName(name: string): string {
  return name.normalize('NFC')
}

/**
 * The author's file that a new name would be confused with: one whose name differs from it only in
 * case (`Alice` beside `alice`), which a case-insensitive file system (macOS, Windows) holds as one
 * file. `undefined` when there is none.
 */
export function caseTwinOf(name: string, existing: readonly string[]): string | undefined {
  const folded = reviewerName(name).toLowerCase()
  return existing.find((other) => other !== name && reviewerName(other).toLowerCase() === folded)
}

/** Lists a directory's file names, or none when it does not exist; replaced when a revision adds a file. */
export type DirectoryLister = (dir: string) => Promise<readonly string[]>

/**
 * The names in a directory that a reader may be asked to read: its files, its symbolic links and
 * its folders. A link is listed so that its read follows it within the project or refuses it, and a
 * folder so that where a file is expected it is refused as a folder: left out, either would leave
 * out what it holds without a word. A FIFO, a socket or a device is no fixture file, and reading
 * one could wait for ever.
 */
export const listDirectory: DirectoryLister = async (dir) => {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() || entry.isSymbolicLink() || entry.isDirectory())
      .map((entry) => entry.name)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return []
    throw error
  }
}

/** One adoption: the adopted review of a case's slot, and the independent reviews it resolved. */
export interface Adoption {
  readonly caseId: string
  readonly slot: string
  readonly adjudicator: string
  /** Fingerprint of the adopted review (in `annotations.json`) when it was adopted. */
  readonly reviewSha256: string
  /** Fingerprint of each independent review it resolved, by reviewer. */
  readonly resolved: Readonly<Record<string, string>>
  /** `['adoptions', 3]`. */
  readonly path: readonly PathSegment[]
}

/** A fixture's independent reviews and adoptions; empty for a fixture that keeps none. */
export interface Panel {
  /** The reviewers, by file name, sorted. */
  readonly reviewers: readonly string[]
  /** Each reviewer's file, as shown, with its SHA-256. */
  readonly files: LabelSet['files']
  /** Independent reviews by case id, then reviewer, then slot. */
  readonly reviews: ReadonlyMap<string, ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>>>
  /** Adoptions by case id, then slot. */
  readonly adoptions: ReadonlyMap<string, Readonly<Record<string, Adoption>>>
  /** `adjudications.json` as shown, with its SHA-256; `undefined` when the fixture has none. */
  readonly adjudications: { readonly display: string; readonly sha256: string } | undefined
}

const NO_ADOPTIONS: ReadonlyMap<string, Readonly<Record<string, Adoption>>> = new Map()

export const EMPTY_PANEL: Panel = { reviewers: [], files: {}, reviews: new Map(), adoptions: NO_ADOPTIONS, adjudications: undefined }

const AdjudicationsSchema = z.strictObject({
  $schema: z.string().optional(),
  adoptions: z.array(
    z.strictObject({
      case_id: z.string().min(1),
      slot: z.string().min(1),
      adjudicator: z.string().regex(REVIEWER_NAME, { error: 'a name of letters, digits, ".", "_" and "-"' }),
      review_sha256: Sha256Schema,
      resolved: z.record(z.string().regex(REVIEWER_NAME), Sha256Schema),
    }),
  ),
})

/** Where a fixture's label files are read from: its folder, as found and as shown, its cases, and how files are read. */
export interface LabelSource {
  readonly definition: SomeKindDefinition
  readonly absolute: string
  readonly display: string
  readonly cases: readonly CaseEntry[]
  /** `cases.json` as shown, for messages. */
  readonly casesFile: string
  readonly read: FixtureFileReader
  readonly list: DirectoryLister
  readonly memo?: ParseMemo | undefined
}

/**
 * Reads a fixture's independent reviews (`reviews/<reviewer>.json`, each in the format of
 * `annotations.json`) and its adoptions (`adjudications.json`). A file in the wrong format, a
 * review of an unknown case, a reviewer reviewing one case twice, or an adoption of an unknown case
 * refuses the fixture, naming the file and the JSON path; nothing is guessed.
 */
export async function readPanel(source: LabelSource): Promise<Panel> {
  const { definition, absolute, display, cases, casesFile, read, list, memo } = source
  const adjudicationsPath = join(absolute, ADJUDICATIONS_FILE)
  const hasAdjudications = (await list(absolute)).includes(ADJUDICATIONS_FILE)
  const set = await readLabelDirectory(source, REVIEWS_DIR)
  if (set.names.length === 0 && !hasAdjudications) return EMPTY_PANEL
  const { files, reviews } = set

  // The very same empty map at every read: an evaluation kept up to date tells by it that no adoption changed.
  let adoptions: ReadonlyMap<string, Readonly<Record<string, Adoption>>> = NO_ADOPTIONS
  let adjudications: Panel['adjudications']
  if (hasAdjudications) {
    const file = await read(adjudicationsPath, join(display, ADJUDICATIONS_FILE))
    const sha256 = hashOnce(file)
    adjudications = {
      display: file.display,
      get sha256() {
        return sha256()
      },
    }
    adoptions =
      memo === undefined
        ? readAdoptions(definition, file, cases, casesFile)
        : memo.byCase(ADJUDICATIONS_FILE, file, cases, () => readAdoptions(definition, file, cases, casesFile))
  }
  return { reviewers: set.names, files, reviews, adoptions, adjudications }
}

/** The adoptions of `adjudications.json`, each of a case the fixture holds, at most one per case and slot. */
function readAdoptions(definition: SomeKindDefinition, file: RawFile, cases: readonly CaseEntry[], casesFile: string): Map<string, Record<string, Adoption>> {
  const adoptions = new Map<string, Record<string, Adoption>>()
  const { adoptions: recorded } = checkFileDocument(AdjudicationsSchema, parseJsonFile(file), {
    file: file.display,
    code: 'FILE_SCHEMA',
    hint: `${ADJUDICATIONS_FILE} holds adoptions, each { case_id, slot, adjudicator, review_sha256, resolved: { <reviewer>: <sha256> } }; it is written by vitest-rubric adjudicate.`,
  })
  const ids = new Set(cases.map((entry) => entry.id))
  recorded.forEach((adoption, index) => {
    const path = ['adoptions', index]
    if (!ids.has(adoption.case_id) || !definition.reviews.slots.includes(adoption.slot)) {
      const unknownCase = !ids.has(adoption.case_id)
      throw new FixtureError({
        code: 'UNKNOWN_REVIEW',
        file: file.display,
        path: [...path, unknownCase ? 'case_id' : 'slot'],
        summary: unknownCase
          ? `the adoption names a case that ${casesFile} does not hold.`
          : 'the adoption names a review slot this kind of fixture does not have.',
        expected: unknownCase ? `one of the case ids: ${quoteSome([...ids])}` : `one of ${quoteSome(definition.reviews.slots)}`,
        found: JSON.stringify(unknownCase ? adoption.case_id : adoption.slot),
        hint: 'remove the adoption, or adjudicate the case again.',
      })
    }
    const bySlot = adoptions.get(adoption.case_id) ?? {}
    if (bySlot[adoption.slot] !== undefined) {
      throw new FixtureError({
        code: 'DUPLICATE_REVIEW',
        file: file.display,
        path: [...path, 'case_id'],
        summary: `case "${adoption.case_id}" is adopted twice: which adoption stands would be a guess.`,
        hint: 'keep one adoption per case: adjudicate it again.',
      })
    }
    bySlot[adoption.slot] = {
      caseId: adoption.case_id,
      slot: adoption.slot,
      adjudicator: reviewerName(adoption.adjudicator),
      reviewSha256: adoption.review_sha256,
      // Keyed as the reviewers are (in NFC): a name recorded decomposed is the same reviewer's.
      resolved: Object.fromEntries(Object.entries(adoption.resolved).map(([reviewer, sha256]) => [reviewerName(reviewer), sha256])),
      path,
    }
    adoptions.set(adoption.case_id, bySlot)
  })
  return adoptions
}

/** The directory of a fixture that holds each automated judge's labels, one file per judge. */
export const JUDGES_DIR = 'judges'

/** A judge's file as messages name it, before it exists too: `<dir>/judges/<judge>.json`, in the records layout `<dir>/records/judges/<judge>.json`. */
export function judgeFileDisplay(fixture: { readonly displayDir: string; readonly judges: LabelSet; readonly records?: unknown }, judge: string): string {
  return (
    own(fixture.judges.files, judge)?.display ?? join(fixture.displayDir, ...(fixture.records === undefined ? [] : [RECORDS_DIR]), JUDGES_DIR, `${judge}.json`)
  )
}

/**
 * An author's document by its name in the fixture (`reviews/zoë.json`): the file that holds their
 * labels, named as it is stored (a name read decomposed is written back to the same file, never to
 * a second one beside it), or `<subdir>/<author>.json` for an author who has none yet.
 */
export function authorDocument(labels: Pick<LabelSet, 'files'>, subdir: typeof REVIEWS_DIR | typeof JUDGES_DIR, author: string): string {
  const file = own(labels.files, author)
  // The file's path as shown ends in its name as stored.
  return `${subdir}/${file === undefined ? `${author}.json` : basename(file.display)}`
}

/** Reviews kept one file per author (`reviews/<reviewer>.json`, `judges/<judge>.json`), in the format of `annotations.json`. */
export interface LabelSet {
  /** The authors, by file name, sorted. */
  readonly names: readonly string[]
  /** Each author's file, as shown, with its SHA-256 and its `origin`. */
  readonly files: Readonly<Record<string, { readonly display: string; readonly sha256: string; readonly origin: string }>>
  /** Reviews by case id, then author, then slot. */
  readonly reviews: ReadonlyMap<string, ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>>>
}

export const EMPTY_LABELS: LabelSet = { names: [], files: {}, reviews: new Map() }

/** A fixture's automated judges' labels (`judges/<judge>.json`): checked like reviews, never deciding a case. */
export function readJudges(source: LabelSource): Promise<LabelSet> {
  return readLabelDirectory(source, JUDGES_DIR)
}

/**
 * Reads one file per author from a directory of the fixture. A file whose name is not an author's
 * name, a file in the wrong format, a review of an unknown case or an author reviewing one case
 * twice refuses the fixture, naming the file and the JSON path; nothing is guessed.
 */
async function readLabelDirectory(source: LabelSource, subdir: string): Promise<LabelSet> {
  const { definition, absolute, display, cases, casesFile, read, list, memo } = source
  const directory = join(absolute, subdir)
  const names = (await list(directory)).filter((name) => name.endsWith('.json')).sort()
  if (names.length === 0) return EMPTY_LABELS
  const author = subdir === JUDGES_DIR ? 'judge' : 'reviewer'
  const read_: { readonly who: string; readonly file: RawFile; readonly document: ReviewDocument }[] = []
  const shownBy = new Map<string, { readonly shown: string; readonly composed: boolean }>()
  for (const name of names) {
    const stem = name.slice(0, -'.json'.length)
    const shown = join(display, subdir, name)
    if (!REVIEWER_NAME.test(stem)) {
      throw new FixtureError({
        code: 'FILE_SCHEMA',
        file: shown,
        summary: `the file name is not a ${author} name: a ${author} is named by letters, digits, ".", "_" and "-", not starting with a dot.`,
        found: JSON.stringify(stem),
        hint: `rename the file to the ${author}'s name, such as ${subdir}/${author === 'judge' ? 'gpt-judge' : 'alice'}.json.`,
      })
    }
    // A name stored decomposed (as macOS HFS+ stores it) is the author's all the same: `zoe\u0308.json` holds zoë's labels.
    const who = reviewerName(stem)
    const twin = shownBy.get(who)
    if (twin !== undefined) throw unicodeTwins(author, who, twin, { shown, composed: stem === who })
    shownBy.set(who, { shown, composed: stem === who })
    const file = await read(join(directory, name), shown)
    const document = memo === undefined ? readReviewDocument(definition, file, cases, casesFile) : memo.reviewDocument(definition, file, cases, casesFile)
    read_.push({ who, file, document })
  }
  const made = () => {
    if (subdir === JUDGES_DIR) for (const { file, document } of read_) checkJudgeConfidences(file.display, document)
    return labelSet(read_)
  }
  // The same parsed documents as at the last read (none of their bytes changed): the same labels, checked then.
  return memo === undefined
    ? made()
    : memo.derivedOf(
        subdir,
        read_.map((each) => each.document),
        made,
      )
}

/**
 * Two files of one author, their names the same in NFC but stored in two Unicode forms (`zoë.json`
 * composed, `zoe\u0308.json` decomposed, as a copy from macOS may leave them on another system).
 */
function unicodeTwins(author: string, who: string, ...files: readonly { readonly shown: string; readonly composed: boolean }[]): FixtureError {
  const form = (file: { readonly composed: boolean }) => (file.composed ? 'composed (Unicode NFC)' : 'decomposed (not in NFC)')
  const [first, second] = files
  const keep = files.find((file) => file.composed)
  return new FixtureError({
    code: 'DUPLICATE_REVIEW',
    file: second!.shown,
    summary: `${author} ${JSON.stringify(who)} has two files: this one, its name written with the accents ${form(second!)}, and ${first!.shown}, written ${form(first!)}; which holds their labels would be a guess.`,
    hint:
      keep === undefined
        ? `merge the labels of both into one file named in NFC, ${JSON.stringify(`${who}.json`)}, and remove the two.`
        : `merge the labels of the file named decomposed into ${keep.shown}, the one named composed, and remove it.`,
  })
}

/** The labels of the documents of a directory, by case, then author. */
function labelSet(documents: readonly { readonly who: string; readonly file: RawFile; readonly document: ReviewDocument }[]): LabelSet {
  const files: Record<string, { display: string; sha256: string; origin: string }> = {}
  const reviews = new Map<string, Map<string, Readonly<Record<string, ReviewEntry>>>>()
  for (const { who, file, document } of documents) {
    // Taken when asked for: a document the records make is hashed only if its identity is shown.
    const sha256 = hashOnce(file)
    files[who] = {
      display: file.display,
      origin: document.origin,
      get sha256() {
        return sha256()
      },
    }
    for (const [caseId, bySlot] of document.reviews) {
      const byAuthor = reviews.get(caseId) ?? new Map<string, Readonly<Record<string, ReviewEntry>>>()
      byAuthor.set(who, bySlot)
      reviews.set(caseId, byAuthor)
    }
  }
  return { names: Object.keys(files).sort(), files, reviews }
}
