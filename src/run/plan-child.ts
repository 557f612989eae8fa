/**
 * The process that plans one large fixture apart from Vitest (see `plan-process.ts`): it reads,
 * hashes and decides the fixture, hands back the plan's texts and the hash of each file it read,
 * and exits, so that the fixture's parsed documents never enter Vitest's heap.
 */
import { readFixtureFiles, servingReader } from './plan-cache.js'
import { recoverForRun } from './recover.js'
import { planFixture } from './plan-fixture.js'
import { payloadText } from './payload.js'
import { PLANNING_HEARTBEAT_MS, type PlanHeartbeat, type PlanReply, type PlanRequest } from './plan-process.js'

process.once('message', (request: PlanRequest) => {
  // Between its steps the event loop turns, and the heartbeat tells Vitest it is still working.
  const heartbeat = setInterval(() => process.send!({ alive: true } satisfies PlanHeartbeat), PLANNING_HEARTBEAT_MS)
  void reply(request).then((message) => {
    clearInterval(heartbeat)
    process.send!(message, () => process.disconnect())
  })
})
// Its answer sent, or Vitest gone: nothing is left to do.
process.once('disconnect', () => process.exit())

async function reply({ dir, root, options }: PlanRequest): Promise<PlanReply> {
  await recoverForRun(dir, root)
  const files = await readFixtureFiles(dir, root)
  const result = await planFixture(dir, root, files === undefined ? undefined : servingReader(files), options)
  if ('error' in result) return { error: result.error }
  // The fixture is garbage once planned, and the plan's texts are large (about 30 MB at 100,000 cases): collected first,
  // the process peaks at the larger of the two rather than at their sum, which V8 left to chance (731 to 1,009 MiB).
  collectGarbage()
  return {
    plan: JSON.stringify(result.plan),
    payload: payloadText(result.plan),
    // Without them (a file missing, more than one kind) the plan is never cached: the fixture is refused anyway.
    files: files?.map(({ name, sha256 }) => ({ name, sha256 })),
  }
}

/** A full collection, when the process was started with `--expose-gc` (as `startPlanning` starts it). */
function collectGarbage(): void {
  // Cast: `gc` is a global only under `--expose-gc`, which Node's types do not declare.
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
}
