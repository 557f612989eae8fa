import { z } from 'zod'
import type { AuthoringOptions } from '../../core/engine/authoring/options.js'
import type { DraftSource } from '../../core/engine/authoring/draft.js'
import type { CaseVersions } from '../../core/engine/case-versions.js'
import type { WriteIo } from '../../core/json/atomic-write.js'
import type { SaveAnswer, SaveRequest } from '../save-protocol.js'
import { readBody, RequestError } from '../request.js'
import { json } from '../respond.js'
import { recordedSave, type SaveOutcome } from '../save-trail.js'
import { saveIdentity } from '../team.js'
import type { Viewer } from '../viewer.js'
import { servedCase, savedCaseFigures } from '../page-data.js'
import { savedCase } from './assignment.js'
import type { Route } from './route.js'
import type { LoadedFixture } from '../served-fixtures.js'
import { UsageError } from '../../core/common/errors.js'
import { quoteSome } from '../../core/common/primitives.js'
import { slotOptionOf } from '../../core/engine/slot-option.js'

// A save of the page (a review, an adoption), as every save goes: the body checked with the files'
// schemas, the saver taken from the link with a team, and the write made through the same
// compare-and-swap path as the CLI's, under the fixture's lock, refused when a file the page read
// has changed since, and recorded (a commit, or a line of the audit log) or undone.

const SaveBody = z.strictObject({
  fixture: z.int().min(0),
  id: z.string().min(1),
  draft: z.record(z.string(), z.unknown()),
  versions: z.record(z.string(), z.string().nullable()),
  replace: z.boolean(),
  reviewer: z.string().optional(),
  adjudicator: z.string().optional(),
  estimate: z.boolean().optional(),
  calibration: z.boolean().optional(),
})
/** The body the server reads is the one the protocol says the page sends: each is assignable to the other, or the build fails. */
const saveBodyIsTheProtocols: SameType<z.infer<typeof SaveBody>, SaveRequest> = true
void saveBodyIsTheProtocols
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** A save as the server makes it: the body, with the saver's names as the link says with a team. */
export type PageSave = z.infer<typeof SaveBody>

/** What a save's writer is handed besides the draft: the case, the versions the page read, and the writer to write through. */
export type SaveWriting = AuthoringOptions & { readonly caseId: string; readonly expected: CaseVersions; readonly io: WriteIo }

/** How the page names the draft in a refusal, and what it says to do about one that does not follow the format. */
export const PAGE_SOURCE: DraftSource = {
  label: 'the review page',
  locate: (path) => `the review page's ${path.map(String).join(' › ') || 'review'}`,
  hint: "send each judgement as the review page's form does, in the format docs/format.md gives the fixture's reviews; if the page sent this, reload it.",
}

/** What one kind of save does: where it is posted, what it writes, and whom its answer is made for. */
export interface SaveAction {
  readonly path: '/api/review' | '/api/adjudicate'
  /** Writes the save into the fixture `dir` through `writing.io`, under the fixture's lock, and says what it did. */
  readonly write: (dir: string, save: PageSave, writing: SaveWriting) => Promise<SaveOutcome>
  /** Who the answer's case is shown to. */
  readonly viewer: (save: PageSave) => Viewer
}

/** The route of a kind of save. Its answer is the case and its fixture's figures, not the whole overview: the page updates its one row. */
export function saveRoute(action: SaveAction): Route {
  return async ({ request, response, caller, seen, fixtures, server }) => {
    const body = SaveBody.safeParse(await readBody(request, server.maxBody))
    if (!body.success)
      throw new RequestError(
        'BAD_REQUEST',
        `the request body is not a save: ${body.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')}`,
      )
    const person = caller.person
    const save: PageSave =
      person === undefined ? body.data : { ...body.data, reviewer: undefined, adjudicator: undefined, ...saveIdentity(person, action.path, body.data) }
    if (save.reviewer !== undefined) seen.viewer = { role: 'reviewer', name: save.reviewer }
    const dir = fixtures.options.dirs[save.fixture]
    if (dir === undefined) throw new RequestError('NOT_FOUND', `there is no fixture ${save.fixture}.`)
    refuseSeveralReviews(fixtures.lastLoaded(save.fixture) ?? (await fixtures.loaded(save.fixture)), action.path, save.id)
    if (Object.keys(save.draft).length === 0)
      throw new RequestError('EMPTY_DRAFT', 'the draft judges no criterion: there is nothing to save. Rate at least one criterion.')
    // The versions are checked under the fixture's lock, against the files as they are then; what the server parsed
    // of the files already is not parsed again, only the files the save changes. The memo knows each parse by the
    // file's bytes, so the one last read serves as well as one checked now: the save is not preceded by a check of every file.
    const memo = fixtures.lastLoaded(save.fixture)?.parsed
    const common = { caseId: save.id, cwd: server.cwd, expected: save.versions, kinds: server.kinds, ...(memo === undefined ? {} : { memo }) }
    // Each save is recorded (a commit, or a line of the audit log) under the fixture's lock, or undone.
    const base = { dir, fixture: fixtures.options.named[save.fixture]!, caseId: save.id, role: person?.role, email: person?.email }
    const { decision } = await recordedSave(server.trail, base, server.cwd, (io) => action.write(dir, save, { ...common, io }))
    if (server.team !== undefined) await savedCase(server.team, person, save.fixture, save.id)
    const viewer = action.viewer(save)
    const entry = await fixtures.loaded(save.fixture)
    const { coverage, agreement, calibration, sample, estimate, version, row } =
      viewer.role === 'reviewer'
        ? await fixtures.reviewerFigures(entry, save.fixture, viewer, save.id)
        : await savedCaseFigures(entry.fixture, entry.decided, save, fixtures.estimateJudge)
    json(response, 200, {
      decision,
      case: await servedCase(entry.fixture, save.fixture, save.id, viewer, server.evaluate, entry.decided),
      fixture: { index: save.fixture, version, coverage, agreement, calibration, sample, estimate, row },
    } satisfies SaveAnswer)
  }
}

/**
 * A save records a case's one review: its body has no field naming one of several (a scored case's
 * `debate` and `baseline`), so such a case is read-only on the page and through its API, and the
 * refusal says so in the API's terms, with the command that records those reviews.
 */
function refuseSeveralReviews({ fixture }: LoadedFixture, path: SaveAction['path'], caseId: string): void {
  const { slots } = fixture.definition.reviews
  if (slots.length === 1) return
  const option = slotOptionOf(fixture.definition)
  throw new UsageError({
    code: 'USAGE',
    file: fixture.displayDir,
    summary: `a ${fixture.definition.name} case has several reviews (${quoteSome(slots)}), and a save (POST ${path}) records a case's one review: its body has no field to say which, so this fixture's cases are read-only on the review page and through its API; nothing was written.`,
    expected: 'a save of a case of a fixture whose cases have one review (a criteria fixture)',
    hint: `record this case's reviews from the command line instead: \`vitest-rubric review ${fixture.displayDir} --case ${caseId} --${option} ${slots[0]} --from <review.json>\` (and --${option} ${slots.slice(1).join(`, --${option} `)}).`,
  })
}
