/**
 * The process that plans one large fixture apart from Vitest (see `plan-process.ts`): it reads,
 * hashes and decides the fixture, hands back the plan's texts and the hash of each file it read,
 * and exits, so that the fixture's parsed documents never enter Vitest's heap.
 */
import { readFixtureFiles, servingReader } from './plan-cache.js'
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
  const files = await readFixtureFiles(dir, root)
  const result = await planFixture(dir, root, files === undefined ? undefined : servingReader(files), options)
  if ('error' in result) return { error: result.error }
  return {
    plan: JSON.stringify(result.plan),
    payload: payloadText(result.plan),
    // Without them (a file missing, more than one kind) the plan is never cached: the fixture is refused anyway.
    files: files?.map(({ name, sha256 }) => ({ name, sha256 })),
  }
}
