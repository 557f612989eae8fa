// The review queue and assignment: n asks the server for the next case (GET /api/next). A team's
// reviewer is handed their next case, reserved for them, and the case shows why it is next and until
// when it is theirs, with a way to skip it; on the page of one person n follows the viewer's review
// queue (`vitest-rubric next`'s order) and the case shows why it is next. The overview shows the
// team's progress (GET /api/assignments) to everyone of the team.
import type { AssignmentsAnswer, NextAnswer } from '../protocol.js'
import { api, viewerParam } from './api.js'
import { el, headRow, messageOf } from './dom.js'
import { go, identity, mode, redraw, state, type ShownCase } from './state.js'

/** Whether `n` asks the server: a team's reviewer is handed their cases, everyone else walks the pending ones. */
export const isAssigned = (): boolean => mode === 'serve' && identity?.role === 'reviewer'

/** Whether `n` follows the review queue: on the page of one person; a team's readers and adjudicators walk the pending cases. */
export const followsQueue = (): boolean => mode === 'serve' && identity === null

/** The case last handed out, while it is the one shown. */
let handed: NonNullable<NextAnswer['next']> | null = null
/** What the last request for a case came to, when it handed out none. */
let notice: string | null = null

/** Asks for the reviewer's next case, from the fixture shown on (each fixture in turn), and opens it. */
export async function askNext(): Promise<void> {
  const fixtures = state.fixtures.filter((entry) => !('refused' in entry)).map((entry) => entry.index)
  const start = Math.max(0, fixtures.indexOf(state.current?.fixture ?? -1))
  const skipped = { cases: 0, until: Number.POSITIVE_INFINITY }
  try {
    for (const index of [...fixtures.slice(start), ...fixtures.slice(0, start)]) {
      // One person's queue goes on from the case shown; a team's reviewer is handed the case they hold first.
      const after = followsQueue() && state.current?.fixture === index ? `&after=${encodeURIComponent(state.current.id)}` : ''
      const answer = await api<NextAnswer>(`/api/next?fixture=${index}${followsQueue() ? `&viewer=${encodeURIComponent(viewerParam())}` : ''}${after}`)
      const { next } = answer
      if (answer.skipped !== undefined) {
        skipped.cases += answer.skipped.cases
        skipped.until = Math.min(skipped.until, Date.parse(answer.skipped.until))
      }
      if (next === null) continue
      handed = next
      notice = null
      if (state.current?.fixture === next.fixture && state.current.id === next.id) {
        notice = followsQueue() ? 'No other case is in the queue.' : 'This case is reserved for you: save your review, or skip it.'
        redraw.case()
      } else go(next.fixture, next.id)
      return
    }
    handed = null
    notice = followsQueue()
      ? 'The review queue is empty: no case is sampled and unreviewed, disputed, waiting for adjudication, stale or pending.'
      : skipped.cases === 0
        ? 'No case is left for you to review: each has the reviews it needs, or is reserved by another reviewer.'
        : `No case is left for you to review now: you skipped ${skipped.cases === 1 ? '1 case' : `${skipped.cases} cases`}, which n hands you again from ${clock(skipped.until)}; any other has the reviews it needs, or is reserved by another reviewer.`
  } catch (error) {
    notice = `no next case: ${messageOf(error)}`
  }
  if (state.current === null) redraw.overview()
  else redraw.case()
}

/** On the page of one person, the line of a case the queue gave: why it is next, and how many cases the queue holds. */
function queueLine(data: ShownCase): HTMLElement | null {
  const mine = handed !== null && handed.fixture === data.fixture && handed.id === data.id ? handed : null
  if (mine === null) return notice === null ? null : el('p', { class: 'assignment dim', id: 'assignment', role: 'status' }, notice)
  const queued = mine.queued === undefined ? '' : ` ${mine.queued === 1 ? '1 case is' : `${mine.queued} cases are`} in the queue; n opens the next.`
  return el(
    'p',
    { class: 'assignment queue', id: 'assignment', role: 'status' },
    el('strong', {}, `next in the queue: ${mine.reason}`),
    ` — ${mine.detail}.${queued}`,
    ...(notice === null ? [] : [' ', el('span', { class: 'dim' }, notice)]),
  )
}

/** The line above the overview when n found nothing: outside a team, where the team's progress does not show it. */
export function queueNotice(): HTMLElement | null {
  return followsQueue() && notice !== null && state.current === null ? el('p', { class: 'assignment dim', id: 'assignment', role: 'status' }, notice) : null
}

/** The line of a case handed out: why it is next, until when it is reserved, and a skip. */
export function assignmentLine(data: ShownCase): HTMLElement | null {
  if (followsQueue()) return queueLine(data)
  if (!isAssigned()) return null
  const mine = handed !== null && handed.fixture === data.fixture && handed.id === data.id ? handed : null
  if (mine === null) return notice === null ? null : el('p', { class: 'assignment dim', id: 'assignment', role: 'status' }, notice)
  const skip = el('button', { type: 'button', id: 'skip-case' }, 'skip (n hands you another)')
  skip.addEventListener('click', () => {
    void api('/api/release', { fixture: mine.fixture, id: mine.id }).then(askNext, (error: unknown) => {
      notice = `not skipped: ${messageOf(error)}`
      redraw.case()
    })
  })
  const until = clock(new Date(mine.expires ?? 0).getTime())
  return el(
    'p',
    { class: 'assignment', id: 'assignment', role: 'status' },
    el('strong', {}, `next for you: ${mine.reason}`),
    ` — ${mine.detail}. Reserved for you until ${until}. `,
    ...(notice === null ? [] : [el('span', { class: 'dim' }, `${notice} `)]),
    skip,
  )
}

/** A time of today, as the page says when a reservation ends: `10:42`. */
function clock(time: number): string {
  return new Date(time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
}

/** The team's progress on the overview, filled in when the server answers; `null` outside a team. */
export function progressBlock(): HTMLElement | null {
  if (mode !== 'serve' || identity === null) return null
  const section = el('section', { class: 'assignments', id: 'assignments' }, el('h2', {}, 'Assignment'))
  if (isAssigned() && notice !== null && state.current === null) section.append(el('p', { class: 'dim', role: 'status' }, notice))
  api<AssignmentsAnswer>('/api/assignments').then(
    (progress) => section.append(...progressTables(progress)),
    (error: unknown) => section.append(el('p', { class: 'error' }, messageOf(error))),
  )
  return section
}

function progressTables(progress: AssignmentsAnswer): HTMLElement[] {
  const names = new Map(state.fixtures.map((entry) => [entry.index, 'refused' in entry ? entry.dir : entry.name]))
  const people = el('table', { class: 'progress-people' }, headRow('reviewer', 'reviews done', 'reserved now'))
  for (const person of progress.people)
    people.append(el('tr', {}, el('td', {}, person.name), el('td', {}, String(person.reviews)), el('td', {}, String(person.reservations))))
  const fixtures = el('table', { class: 'progress-fixtures' }, headRow('fixture', `cases with ${progress.reviewsPerCase} reviews`, 'reserved now'))
  for (const fixture of progress.fixtures)
    fixtures.append(
      el(
        'tr',
        {},
        el('td', {}, names.get(fixture.index) ?? String(fixture.index)),
        el('td', {}, `${fixture.complete} / ${fixture.total}`),
        el('td', {}, String(fixture.reserved)),
      ),
    )
  const rule = el(
    'p',
    { class: 'dim' },
    `Each case needs ${progress.reviewsPerCase} independent review${progress.reviewsPerCase === 1 ? '' : 's'}; a case handed out stays reserved ${progress.reserveMinutes} minutes.`,
  )
  return [rule, people, fixtures]
}
