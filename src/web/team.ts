import { z } from 'zod'
import { RubricError, UsageError } from '../core/common/errors.js'
import { readGivenFile } from '../core/common/given-file.js'
import { errnoCode } from '../core/common/primitives.js'
import { formatPath } from '../core/common/json-path.js'
import { caseTwinOf, REVIEWER_NAME, reviewerName } from '../core/engine/panel.js'
import { parseJsonText } from '../core/json/read.js'
import { safeParseReporting, schemaError } from '../core/json/schema-error.js'
import type { Viewer } from './viewer.js'
import { RequestError } from './request.js'

// The people of `serve --team`: who they are and what each may do. The server knows a person by
// their link's token alone; this module says what that person is shown and may save.

/** What a person may do: review (blind, as themselves), adjudicate (adopt, under their name), or read. */
export const TEAM_ROLES = ['reviewer', 'adjudicator', 'reader'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

const PersonSchema = z.strictObject({
  name: z.string({ error: 'a name' }).regex(REVIEWER_NAME, { error: 'a name of letters and digits, then also ".", "_", "-" (at most 64 characters)' }),
  role: z.enum(TEAM_ROLES, { error: 'one of "reviewer", "adjudicator", "reader"' }),
  /** The address of the person's commits under `serve --commit`; `<name>@vitest-rubric.invalid` without it. */
  email: z
    .string({ error: 'an email address' })
    .regex(/^[^\s<>@]+@[^\s<>@]+$/, { error: 'an email address (one "@", no spaces, "<" or ">")' })
    .optional(),
})

/** `team.json`: the people `serve --team` issues a link to. */
export const TeamSchema = z
  .strictObject({ people: z.array(PersonSchema, { error: 'a list of people { name, role }' }).min(1, { error: 'at least one person' }) })
  .superRefine((team, context) => {
    const seen = new Set<string>()
    team.people.forEach((person, index) => {
      if (seen.has(person.name))
        context.addIssue({ code: 'custom', path: ['people', index, 'name'], message: 'a name no other person of the team has', input: person.name })
      seen.add(person.name)
    })
  })

export type Team = z.infer<typeof TeamSchema>
export type Person = Team['people'][number]

/** A team file as read: where it is, and its people. */
export interface LoadedTeam {
  /** Absolute path. */
  readonly path: string
  /** As shown in messages, from the project root. */
  readonly display: string
  readonly people: readonly Person[]
}

const TEAM_FIX =
  'write the team file as docs/review-page.md#reviewing-as-a-team shows: { "people": [ { "name": "alice", "role": "reviewer" } ] }, each name once.'

/** Reads and checks `team.json`; every mistake is a `TEAM_INVALID` naming the file and the JSON path. */
export async function loadTeam(file: string, cwd: string): Promise<LoadedTeam> {
  const {
    absolute: path,
    display,
    bytes,
  } = await readGivenFile(cwd, file, (shown, cause) => {
    const code = errnoCode(cause)
    return new UsageError({
      code: 'TEAM_INVALID',
      file: shown,
      summary: code === 'ENOENT' ? 'the team file is missing.' : `the team file cannot be read (${code ?? String(cause)}).`,
      hint: `give --team the path of a team file; ${TEAM_FIX}`,
    })
  })
  let value: unknown
  try {
    value = parseJsonText({ display, bytes }).value
  } catch (error) {
    // The JSON reader's own wording (line and column), under the team file's code and fix.
    if (!(error instanceof RubricError)) throw error
    throw new UsageError({
      code: 'TEAM_INVALID',
      file: display,
      path: error.path,
      summary: error.summary,
      expected: error.expected,
      found: error.found,
      hint: TEAM_FIX,
    })
  }
  const parsed = safeParseReporting(TeamSchema, value)
  if (!parsed.success) throw schemaError({ ErrorClass: UsageError, code: 'TEAM_INVALID', file: display, basePath: [], hint: TEAM_FIX }, parsed.error.issues)
  refuseNameTwins(parsed.data.people, display)
  return { path, display, people: parsed.data.people }
}

/**
 * Refuses two people whose names differ only in letter case (`Alice`, `alice`) or in Unicode form
 * (`zoë` composed and decomposed): a reviewer's file is named by the person, and a case-insensitive
 * file system holds both names as one file, as {@link caseTwinOf} refuses them everywhere else.
 */
function refuseNameTwins(people: readonly Person[], display: string): void {
  const names = people.map((person) => person.name)
  names.forEach((name, index) => {
    const earlier = names.slice(0, index)
    const twin = caseTwinOf(name, earlier)
    // The very same name twice is the schema's refusal.
    if (twin === undefined || earlier.includes(name)) return
    const twinPath = formatPath(['people', earlier.indexOf(twin), 'name'])
    const sameName = reviewerName(twin) === reviewerName(name)
    throw new UsageError({
      code: 'TEAM_INVALID',
      file: display,
      path: ['people', index, 'name'],
      summary: sameName
        ? `${JSON.stringify(name)} is ${twinPath}, ${JSON.stringify(twin)}, written in another Unicode form (composed or decomposed): the two would be one reviewer with one file.`
        : `${JSON.stringify(name)} differs only in case from ${twinPath}, ${JSON.stringify(twin)}: a case-insensitive file system (macOS, Windows) holds reviews/${twin}.json and reviews/${name}.json as one file, which would merge two people's reviews.`,
      expected: sameName ? `a name other than ${JSON.stringify(twin)}` : `a name that is not ${JSON.stringify(twin)} in other letter case`,
      found: JSON.stringify(name),
      hint: `keep one of people[${earlier.indexOf(twin)}] and people[${index}] if they are the same person, or give each a name of their own.`,
    })
  })
}

/** What a person is shown: a reviewer is always blind as themselves; an adjudicator and a reader see every review. */
export function viewerOf(person: Person): Viewer {
  return person.role === 'reader' ? { role: 'reader' } : { role: person.role, name: person.name }
}

/** The identities a save is made under, from the person alone; a body naming anyone else is refused. */
export function saveIdentity(
  person: Person,
  route: '/api/review' | '/api/adjudicate',
  named: { readonly reviewer?: string | undefined; readonly adjudicator?: string | undefined },
): { readonly reviewer: string } | { readonly adjudicator: string } {
  if (person.role === 'reader') throw new RequestError('ROLE_NOT_PERMITTED', `${person.name} reads: a reader's link saves nothing.`)
  const wanted = person.role === 'reviewer' ? '/api/review' : '/api/adjudicate'
  if (route !== wanted)
    throw new RequestError(
      'ROLE_NOT_PERMITTED',
      person.role === 'reviewer'
        ? `${person.name} reviews: a reviewer's link cannot adjudicate.`
        : `${person.name} adjudicates: an adjudicator's link adopts reviews, it does not write one.`,
    )
  const claimed = person.role === 'reviewer' ? (named.reviewer ?? named.adjudicator) : (named.adjudicator ?? named.reviewer)
  if ((named.reviewer !== undefined && named.adjudicator !== undefined) || (claimed !== undefined && claimed !== person.name))
    throw new RequestError(
      'IDENTITY_MISMATCH',
      `this link is ${person.name}'s: a save through it is made as ${person.name}, never as ${claimed ?? 'anyone else'}.`,
    )
  return person.role === 'reviewer' ? { reviewer: person.name } : { adjudicator: person.name }
}
