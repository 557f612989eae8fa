import { confirm, intro, isCancel, log, note, outro, select, text } from '@clack/prompts'
import { isObject } from '../../../common/primitives.js'
import { concedes } from '../dimensions/calibration.js'
import { CREDITS, HANDLINGS, RESOLUTION_TYPES, RESPONSES, TEST_QUALITIES, VALIDITIES, type ScoredCase, type System } from '../schemas.js'
import { lastRoundOf } from '../transcript.js'
import type { InteractiveReview, Terminal } from '../../../contract/terminal.js'
import type { ScoredRubric } from '../rubric.js'
import { numberedOutput, outputNote, specNote } from './view.js'
import { resolveSpanAmong, type NumberedText } from '../../../common/sentences.js'

/** Thrown by {@link answer} when the reviewer cancels a question: nothing is written. */
class Cancelled extends Error {}

function answer<T>(value: T): Exclude<T, symbol> {
  if (isCancel(value)) throw new Cancelled()
  // Cast: the prompt library types its answer with its cancel symbol, ruled out on the line above.
  return value as Exclude<T, symbol>
}

type Previous = Readonly<Record<string, unknown>>

const NONE = 'none'

const VALIDITY_HINTS: Record<(typeof VALIDITIES)[number], string> = {
  planted: 'it finds one of the planted issues',
  demonstrably_real: 'a real flaw, though not a planted one',
  invalid: 'no real flaw',
}

const CREDIT_HINTS: Record<(typeof CREDITS)[number], string> = {
  full: 'location and characterization right',
  partial: 'the location right but the characterization materially wrong, or the reverse',
}

const QUALITY_HINTS: Record<(typeof TEST_QUALITIES)[number], string> = {
  diagnostic: 'its outcome tells the two positions apart',
  underspecified: 'it would, but it is not concrete enough to run',
  non_diagnostic: 'both positions predict the same outcome',
}

/**
 * The texts each excerpt of a review quotes, as the kind's provenance check reads them (which
 * still checks the recorded review): here they let a prompt refuse an excerpt on the spot.
 */
interface Quotable {
  /** Who makes the claims: the critique, or the baseline's self-critique. */
  readonly critic: string
  readonly claims: readonly string[]
  readonly claimsAre: string
  readonly verdict: readonly string[]
  readonly verdictIs: string
}

function quotable(theCase: ScoredCase, system: System): Quotable {
  if (system === 'baseline') {
    const { answer: given, self_critique: selfCritique } = theCase.outputs.baseline
    return { critic: 'the self-critique', claims: [selfCritique], claimsAre: 'the self-critique', verdict: [given], verdictIs: 'the answer' }
  }
  const { transcript } = theCase.outputs.debate
  const lastRound = lastRoundOf(transcript)
  return {
    critic: 'the critique',
    claims: transcript.filter((turn) => turn.agent === 'critique').map((turn) => turn.text),
    claimsAre: 'the critique turns',
    verdict: transcript.filter((turn) => turn.round === lastRound).map((turn) => turn.text),
    verdictIs: `the turns of the last round (${lastRound})`,
  }
}

/**
 * Asks a reviewer for a scored review of one system's output, field by field: each atomic claim
 * (its excerpt, validity, the planted issue it finds and its credit, the reason, and the defense's
 * response or the answer's handling, each asked only where it applies), the resolution, the
 * empirical test and the final verdict. Excerpts are checked to occur where the kind looks for
 * them, and asked again when they do not. A replaced review's values are the starting values. It
 * shows the decision the review would give and writes only after the reviewer confirms.
 */
export const promptScoredReview: InteractiveReview<ScoredRubric, ScoredCase> = async (target, terminal, record) => {
  const io = { input: terminal.input, output: terminal.output }
  const theCase = target.parsedCase
  // Cast: the slot of a scored review is one of its systems.
  const system = target.slot as System
  const previous: Previous = isObject(target.existing?.value) ? target.existing.value : {}
  try {
    intro(`vitest-rubric review: case ${theCase.id} (${system}) of ${target.fixture.displayDir}`, io)
    note(specNote(theCase), 'The case', io)
    const output = outputNote(theCase, system)
    note(output.text, output.title, io)
    const draft = await askReview(theCase, system, previous, io)
    const preview = await record(draft, true)
    log.info(`With this review the case is ${preview.decision}.`, io)
    const write = answer(await confirm({ ...io, message: `Write the review to ${target.file}?` }))
    if (!write) return cancelled(io)
    const result = await record(draft, false)
    outro(`Recorded: ${result.written.join(' and ') || 'nothing to write'}`, io)
    return result
  } catch (error) {
    if (error instanceof Cancelled) return cancelled(io)
    throw error
  }
}

async function askReview(theCase: ScoredCase, system: System, previous: Previous, io: Terminal): Promise<Record<string, unknown>> {
  const quotes = quotable(theCase, system)
  const before = Array.isArray(previous['claims']) ? previous['claims'].filter(isObject) : []
  const claims: Record<string, unknown>[] = []
  const used = new Set<string>()
  for (let index = 0; ; index++) {
    const more = answer(
      await confirm({
        ...io,
        message: index === 0 ? `Does ${quotes.critic} make a claim?` : `Another claim of ${quotes.critic}?`,
        initialValue: index < before.length || (index === 0 && !Array.isArray(previous['claims'])),
      }),
    )
    if (!more) break
    const earlier = before[index] ?? {}
    const id = typeof earlier['id'] === 'string' && !used.has(earlier['id']) ? earlier['id'] : freeId(used, system === 'debate' ? 'C' : 'B')
    used.add(id)
    claims.push(await askClaim(theCase, system, id, earlier, quotes, io))
  }
  const resolution = isObject(previous['resolution']) ? previous['resolution'] : {}
  const test = isObject(previous['empirical_test']) ? previous['empirical_test'] : undefined
  return {
    claims,
    resolution: system === 'debate' ? await askDebateResolution(resolution, io) : await askBaselineResolution(resolution, io),
    empirical_test: await askTest(theCase, system, previous['empirical_test'] === null ? null : test, io),
    final_verdict: await askVerdict(
      quotes,
      typeof previous['final_verdict'] === 'string' ? previous['final_verdict'] : undefined,
      numberedOutput(theCase, system),
      io,
    ),
  }
}

/** The next claim id not taken: C1, C2, … for the critique's claims, B1, B2, … for the baseline's, as the bundled benchmark names them. */
function freeId(used: ReadonlySet<string>, prefix: string): string {
  let n = used.size + 1
  while (used.has(`${prefix}${n}`)) n++
  return `${prefix}${n}`
}

async function askClaim(theCase: ScoredCase, system: System, id: string, earlier: Previous, quotes: Quotable, io: Terminal): Promise<Record<string, unknown>> {
  const planted = theCase.spec.ground_truth.planted_issues
  const span = await askExcerpt(
    `${id}: the excerpt of ${quotes.critic} making the claim`,
    quotes.claims,
    quotes.claimsAre,
    stringAt(earlier, 'span'),
    numberedOutput(theCase, system),
    io,
  )
  const validities = VALIDITIES.filter((validity) => validity !== 'planted' || planted.length > 0)
  const validity = answer(
    await select({
      ...io,
      message: `Validity of ${id}`,
      options: validities.map((value) => ({ value, label: value, hint: VALIDITY_HINTS[value] })),
      ...initial(validities, earlier['validity']),
    }),
  )
  const claim: Record<string, unknown> = { id, span, validity }
  if (validity === 'planted') {
    const ids = planted.map((issue) => issue.id)
    claim['planted_issue'] = answer(
      await select({
        ...io,
        message: `The planted issue ${id} finds`,
        options: planted.map((issue) => ({ value: issue.id, label: issue.id, hint: issue.location })),
        ...initial(ids, earlier['planted_issue']),
      }),
    )
    claim['credit'] = answer(
      await select({
        ...io,
        message: `Credit of ${id}`,
        options: CREDITS.map((value) => ({ value, label: value, hint: CREDIT_HINTS[value] })),
        ...initial(CREDITS, earlier['credit']),
      }),
    )
  }
  claim['reason'] = await askReason(`Why is ${id} ${validity}?`, stringAt(earlier, 'reason'), io)
  const valid = validity !== 'invalid'
  if (system === 'debate') {
    const defense = isObject(earlier['defense']) ? earlier['defense'] : {}
    const response = answer(
      await select({
        ...io,
        message: `The defense's final response to ${id}`,
        options: RESPONSES.map((value) => ({ value, label: value })),
        ...initial(RESPONSES, defense['response']),
      }),
    )
    const defenseTurns = theCase.outputs.debate.transcript.filter((turn) => turn.agent === 'defense').map((turn) => turn.text)
    const responseSpan =
      response === 'no_engagement'
        ? ''
        : await askExcerpt(
            `The excerpt of the defense giving that response`,
            defenseTurns,
            'the defense turns',
            stringAt(defense, 'span'),
            numberedOutput(theCase, system),
            io,
          )
    const judged: Record<string, unknown> = { response, span: responseSpan }
    if (valid && concedes(response)) {
      judged['position_updated'] = answer(
        await confirm({
          ...io,
          message: `After conceding ${id}, did the defense update its conclusion or fix?`,
          ...(typeof defense['position_updated'] === 'boolean' ? { initialValue: defense['position_updated'] } : {}),
        }),
      )
    }
    claim['defense'] = judged
  } else if (valid) {
    claim['answer_handling'] = answer(
      await select({
        ...io,
        message: `Did the answer already handle ${id}?`,
        options: HANDLINGS.map((value) => ({
          value,
          label: value,
          hint: value === 'already_correct' ? 'the answer already had the correct handling' : 'the answer does not handle it',
        })),
        ...initial(HANDLINGS, earlier['answer_handling']),
      }),
    )
  }
  return claim
}

async function askDebateResolution(before: Previous, io: Terminal): Promise<Record<string, unknown>> {
  const critique = await askResolutionType("The resolution type of the critique's final explicit statement", before['critique_final'], io)
  const defense = await askResolutionType("The resolution type of the defense's final explicit statement", before['defense_final'], io)
  const longer = answer(
    await confirm({ ...io, message: 'Did the debate take more rounds than necessary?', initialValue: before['more_rounds_than_necessary'] === true }),
  )
  return {
    critique_final: critique,
    defense_final: defense,
    more_rounds_than_necessary: longer,
    reason: await askReason('Why is the resolution so?', stringAt(before, 'reason'), io),
  }
}

async function askBaselineResolution(before: Previous, io: Terminal): Promise<Record<string, unknown>> {
  const reached = await askResolutionType('The resolution type the self-critique reaches', before['reached'], io)
  return { reached, reason: await askReason('Why is the resolution so?', stringAt(before, 'reason'), io) }
}

async function askResolutionType(message: string, before: unknown, io: Terminal): Promise<string | null> {
  const values = [...RESOLUTION_TYPES, NONE]
  const chosen = answer(
    await select({
      ...io,
      message,
      options: values.map((value) => ({ value, label: value, ...(value === NONE ? { hint: 'it makes no explicit statement of one' } : {}) })),
      ...initial(values, before === null ? NONE : before),
    }),
  )
  return chosen === NONE ? null : chosen
}

async function askTest(theCase: ScoredCase, system: System, before: Previous | null | undefined, io: Terminal): Promise<Record<string, unknown> | null> {
  const proposed = answer(
    await confirm({
      ...io,
      message: system === 'debate' ? 'Does the debate close on an empirical test?' : 'Does the self-critique propose an empirical test?',
      initialValue: before !== null && before !== undefined,
    }),
  )
  if (!proposed) return null
  const earlier = before ?? {}
  const test: Record<string, unknown> = {}
  let turns = [theCase.outputs.baseline.self_critique]
  let where = 'the self-critique'
  if (system === 'debate') {
    const agents = ['critique', 'defense'] as const
    const by = answer(
      await select({
        ...io,
        message: 'Who proposes the test?',
        options: agents.map((value) => ({ value, label: value })),
        ...initial(agents, earlier['proposed_by']),
      }),
    )
    test['proposed_by'] = by
    turns = theCase.outputs.debate.transcript.filter((turn) => turn.agent === by).map((turn) => turn.text)
    where = `the ${by} turns`
  }
  test['span'] = await askExcerpt('The excerpt proposing the test', turns, where, stringAt(earlier, 'span'), numberedOutput(theCase, system), io)
  test['quality'] = answer(
    await select({
      ...io,
      message: 'Quality of the test',
      options: TEST_QUALITIES.map((value) => ({ value, label: value, hint: QUALITY_HINTS[value] })),
      ...initial(TEST_QUALITIES, earlier['quality']),
    }),
  )
  test['reason'] = await askReason('Why is the test so?', stringAt(earlier, 'reason'), io)
  return test
}

async function askVerdict(quotes: Quotable, before: string | undefined, numbered: readonly NumberedText[], io: Terminal): Promise<string | null> {
  const resolve = (value: string) => resolveSpanAmong(value, numbered, quotes.verdict, quotes.verdictIs)
  const typed = answer(
    await text({
      ...io,
      message: `The final verdict, an exact excerpt of ${quotes.verdictIs} or its sentence numbers (empty: none was emitted)`,
      ...(before === undefined ? {} : { initialValue: before }),
      validate: (value) => {
        if (value === undefined || value === '') return undefined
        const resolved = resolve(value)
        return 'problem' in resolved ? resolved.problem : undefined
      },
    }),
  )
  if (typed === undefined || typed === '') return null
  const resolved = resolve(typed)
  return 'span' in resolved ? resolved.span : typed
}

async function askExcerpt(
  message: string,
  texts: readonly string[],
  where: string,
  before: string | undefined,
  numbered: readonly NumberedText[],
  io: Terminal,
): Promise<string> {
  const typed = answer(
    await text({
      ...io,
      message: `${message}: sentence numbers (2 or 2-3) or the exact words`,
      ...(before === undefined ? {} : { initialValue: before }),
      validate: (value) => {
        if (value === undefined || value === '') return 'An excerpt is needed: give sentence numbers or copy the words.'
        const resolved = resolveSpanAmong(value, numbered, texts, where)
        return 'problem' in resolved ? resolved.problem : undefined
      },
    }),
  )
  const resolved = resolveSpanAmong(typed, numbered, texts, where)
  // Validated above: the typed text resolves.
  const span = 'span' in resolved ? resolved.span : typed
  if (span !== typed) log.info(`Excerpt: "${span}"`, io)
  return span
}

async function askReason(message: string, before: string | undefined, io: Terminal): Promise<string> {
  return answer(
    await text({
      ...io,
      message,
      ...(before === undefined ? {} : { initialValue: before }),
      validate: (value) => ((value ?? '').trim() === '' ? 'A reason is needed: say why.' : undefined),
    }),
  )
}

function initial<T extends string>(values: readonly T[], before: unknown): { initialValue?: T } {
  // Cast: an earlier answer is kept only when it is one of the choices, which includes() checks.
  return values.includes(before as T) ? { initialValue: before as T } : {}
}

function stringAt(record: Previous, key: string): string | undefined {
  const value = record[key]
  return typeof value === 'string' ? value : undefined
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}
