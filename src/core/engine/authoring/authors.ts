import { join } from 'node:path'
import { preview, RevisionError, UsageError } from '../../common/errors.js'
import type { SomeFixture } from '../fixture.js'
import { caseTwinOf, JUDGES_DIR, REVIEWER_NAME, reviewerName, REVIEWS_DIR } from '../panel.js'
import { own } from '../../common/primitives.js'

/** A reviewer's name as given, in NFC: a safe file name, or a usage error naming the option. */
export function checkReviewer(given: string, option: string): string {
  const name = reviewerName(given)
  if (REVIEWER_NAME.test(name)) return name
  // A judge's name is its file's too, under judges/; an adjudicator's is recorded in adjudications.json.
  const judge = option === '--judge'
  const who = judge ? 'judge' : option === '--adjudicator' ? 'adjudicator' : 'reviewer'
  throw new UsageError({
    code: 'USAGE',
    file: option,
    summary: `${JSON.stringify(given)} is not a${who === 'adjudicator' ? 'n' : ''} ${who} name; nothing was written.`,
    expected: `letters and digits (of any script), ".", "_" and "-", not starting with a dot, at most 64 characters: the name is also ${judge ? "the judge's file name" : who === 'reviewer' ? "the reviewer's file name" : 'a file name, as every author name is'}`,
    hint: judge
      ? 'name the judge as its file in judges/ will be named, such as gpt-judge or keywords.'
      : who === 'reviewer'
        ? 'name the reviewer as their file in reviews/ will be named, such as alice or zoë.'
        : 'name the adjudicator as a file would be named, such as dana or zoë.',
  })
}

/** Refuses a judge's `origin` that is no well-formed text (a lone surrogate): it would be written, and read back as no text. */
export function checkOrigin(origin: string | undefined, option: string): void {
  if (origin === undefined || origin.isWellFormed()) return
  throw new UsageError({
    code: 'USAGE',
    file: option,
    summary: 'the origin holds a lone surrogate (half of a character beyond U+FFFF), which has no UTF-8 encoding; nothing was written.',
    expected: 'well-formed Unicode text',
    found: preview(origin),
    hint: 'name the model and the revision of its prompt in well-formed text.',
  })
}

/**
 * Refuses a reviewer's or judge's name that differs only in case from an existing author's file:
 * on a case-insensitive file system the two would be one file, merging two people's reviews.
 */
export function refuseCaseTwin(fixture: SomeFixture, name: string | undefined, subdir: typeof REVIEWS_DIR | typeof JUDGES_DIR, option: string): void {
  if (name === undefined) return
  const authors = subdir === REVIEWS_DIR ? fixture.panel.reviewers : fixture.judges.names
  const twin = caseTwinOf(name, authors)
  if (twin === undefined) return
  const files = subdir === REVIEWS_DIR ? fixture.panel.files : fixture.judges.files
  throw new RevisionError({
    code: 'AUTHOR_NAME_TAKEN',
    file: option,
    summary: `${JSON.stringify(name)} differs only in case from ${own(files, twin)?.display ?? join(fixture.displayDir, subdir, `${twin}.json`)}; nothing was written.`,
    expected: `a name that is not ${JSON.stringify(twin)} in other letter case`,
    found: JSON.stringify(name),
    hint:
      subdir === JUDGES_DIR
        ? `a case-insensitive file system (macOS, Windows) holds both names as one file, which would merge two judges' labels: pass ${option} ${twin} if it is the same judge, or a name of its own.`
        : `a case-insensitive file system (macOS, Windows) holds both names as one file, which would merge two authors' reviews: pass ${option} ${twin} if they are the same person, or a name of their own.`,
  })
}

/**
 * Who a review is by, from its options: the adopted review (neither), a reviewer's or a judge's
 * (never both), each name checked and not a case twin of another author's file; `--origin` goes
 * with a judge only.
 */
export function reviewAuthor(
  fixture: SomeFixture,
  options: { readonly reviewer?: string | undefined; readonly judge?: string | undefined; readonly origin?: string | undefined },
): { readonly reviewer: string | undefined; readonly judge: string | undefined } {
  if (options.reviewer !== undefined && options.judge !== undefined) {
    throw new UsageError({
      code: 'USAGE',
      file: '--judge',
      summary: 'a review is by a reviewer or by a judge, not both; nothing was written.',
      hint: 'pass --reviewer or --judge.',
    })
  }
  if (options.origin !== undefined && options.judge === undefined) {
    throw new UsageError({
      code: 'USAGE',
      file: '--origin',
      summary: "--origin names a judge's model and prompt; nothing was written.",
      hint: 'pass it with --judge <name>.',
    })
  }
  checkOrigin(options.origin, '--origin')
  const reviewer = options.reviewer === undefined ? undefined : checkReviewer(options.reviewer, '--reviewer')
  const judge = options.judge === undefined ? undefined : checkReviewer(options.judge, '--judge')
  refuseCaseTwin(fixture, reviewer, REVIEWS_DIR, '--reviewer')
  refuseCaseTwin(fixture, judge, JUDGES_DIR, '--judge')
  return { reviewer, judge }
}
