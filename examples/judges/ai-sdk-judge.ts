// A judge written with the Vercel AI SDK: one model call per case × criterion, its answer held to a
// zod schema of the verdict. It is type-checked with the project, never run in its tests (they
// use keyword-judge.mjs). Compile it, or run it under a Node.js that strips types, then:
//
//   OPENAI_API_KEY=… npx vitest-rubric judge fixtures/lab --judge gpt-judge --run examples/judges/ai-sdk-judge.ts --concurrency 8
import { openai } from '@ai-sdk/openai'
import { generateObject } from 'ai'
import type { CriterionJudge, JudgeVerdict } from 'vitest-rubric'
import { z } from 'zod'

const MODEL = 'gpt-4.1-mini'
const PROMPT_REVISION = 'r1'

/** Named in the judge file's origin, with the module's hash: change it with the model or the prompt. */
export const description = `${MODEL}, prompt ${PROMPT_REVISION}`

const VerdictSchema = z.object({
  rating: z.enum(['meets', 'does_not_meet', 'uncertain']).describe('uncertain when the answer is ambiguous on the criterion'),
  reason: z.string().min(1).describe('why, in one or two sentences; for an omission, what is missing'),
  span: z.string().describe('an exact excerpt of the answer the rating rests on, copied character for character; "" for an omission'),
})

const judge: CriterionJudge = async ({ question, answer, source, criterion }) => {
  const { object } = await generateObject({
    model: openai(MODEL),
    schema: VerdictSchema,
    temperature: 0,
    system:
      'You judge one answer against one criterion of a rubric. Judge only what the answer says, against the source given. ' +
      'Quote the answer exactly in span, or leave it empty when the answer omits what the criterion asks.',
    prompt: [
      `Question: ${question}`,
      `Source:\n${source}`,
      `Criterion ${criterion.id}: ${criterion.rule}`,
      `The source's sentence it rests on: ${criterion.reference_quote}`,
      `Answer (citing ${answer.citation}):\n${answer.text}`,
    ].join('\n\n'),
  })
  // A span the model paraphrased instead of quoting would be refused: the runner retries the call.
  const verdict: JudgeVerdict = { rating: object.rating, reason: object.reason, span: object.span }
  return verdict
}

export default judge
