// A deterministic judge for the docuctl rollback rubric (fixtures/docuctl-rollback): each criterion
// is met when the answer contains one of its phrases, and the span is the phrase as the answer
// writes it. It stands in for a model in the tests and the benchmark; a real judge is
// ai-sdk-judge.ts beside it.
//
//   npx vitest-rubric judge fixtures/docuctl-rollback --judge keywords --run examples/judges/keyword-judge.mjs

/** Named in the judge file's origin, with the module's hash. */
export const description = 'keyword rules r1'

/** Per criterion: all of the phrase groups must match, each by one of its phrases (case-insensitive). */
const RULES = {
  command: [['docuctl releases rollback r41 --environment staging']],
  preconditions: [
    ['release approval', 'has been approved', 'approved'],
    ['confirm', 'made sure', 'on staging'],
  ],
  database_scope: [['not restore database contents', 'database contents are not restored', 'leaves database contents']],
  verification: [['check service health', 'service health', 'health check']],
  support: [],
}

/** Claims the source does not make: an answer making one is unsupported. */
const UNSUPPORTED = ['guarantee', 'zero downtime', 'always safe']

/** @type {import('vitest-rubric').CriterionJudge} */
export default async function judge({ answer, criterion }) {
  const text = answer.text
  const lower = text.toLowerCase()
  if (criterion.id === 'support') {
    const claim = UNSUPPORTED.find((phrase) => lower.includes(phrase))
    if (claim === undefined) return { rating: 'meets', reason: 'No claim beyond the source was found.', span: '' }
    return { rating: 'does_not_meet', reason: `"${claim}" is a claim the source does not make.`, span: excerpt(text, lower, claim) }
  }
  const groups = RULES[criterion.id]
  if (groups === undefined) return { rating: 'uncertain', reason: `No rule for the criterion ${criterion.id}.`, span: '' }
  const found = groups.map((phrases) => phrases.find((phrase) => lower.includes(phrase.toLowerCase())))
  const missing = found.indexOf(undefined)
  if (missing !== -1) return { rating: 'does_not_meet', reason: `The answer does not say "${groups[missing][0]}": ${criterion.rule}`, span: '' }
  const first = found[0]
  return { rating: 'meets', reason: `The answer says "${first}".`, span: excerpt(text, lower, first.toLowerCase()) }
}

/** The phrase as the answer writes it (its case kept), so that the span occurs in the answer. */
function excerpt(text, lower, phrase) {
  const at = lower.indexOf(phrase)
  return text.slice(at, at + phrase.length)
}
