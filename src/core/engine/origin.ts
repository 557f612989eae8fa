import { UsageError } from '../common/errors.js'
import { ORIGIN_PLACEHOLDER } from '../common/origin.js'
import { nodeWriteIo, type WriteIo } from '../json/atomic-write.js'
import { editJsonStrings } from '../json/json-edit.js'
import type { KindRegistry } from './registry.js'
import { FixtureRevision, reviseUnderLock } from './revision.js'

/** Options of {@link setOrigin}. */
export interface SetOriginOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** The kinds the directory may hold. */
  readonly kinds: KindRegistry
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** What {@link setOrigin} did. */
export interface SetOriginResult {
  readonly dir: string
  /** `annotations.json`, as shown. */
  readonly file: string
  readonly before: string
  readonly origin: string
  /** The files written: none when the origin was already so. */
  readonly written: readonly string[]
}

/**
 * Sets `annotations.json › origin`, who or what made the fixture's judgements, as every other
 * writer of a fixture writes: under the fixture's lock, the fixture read and decided first (a
 * fixture refused as a whole is refused here too), only the characters of the origin changed, and
 * the file replaced atomically, only if it is still the file that was read.
 */
export async function setOrigin(dir: string, origin: string, options: SetOriginOptions): Promise<SetOriginResult> {
  const text = origin.trim()
  if (text === '' || !text.isWellFormed() || text === ORIGIN_PLACEHOLDER) {
    throw new UsageError({
      code: 'USAGE',
      file: '--set',
      summary: `${text === '' ? 'the origin is empty' : !text.isWellFormed() ? 'the origin holds a lone surrogate, which has no UTF-8 encoding' : 'the origin is the placeholder init writes'}; nothing was written.`,
      expected: 'who or what made the judgements: a reviewer, a rating study, an authored example',
      hint: 'pass the origin as text: vitest-rubric origin <dir> --set "Reviews by the docs team, 2026-11 study".',
    })
  }
  return reviseUnderLock(dir, options.cwd, async () => {
    const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd)
    const { fixture } = base
    const file = fixture.files.annotations
    const result = { dir: fixture.displayDir, file: file.display, before: fixture.origin, origin: text }
    if (fixture.origin === text) return { ...result, written: [] }
    const edited = editJsonStrings(base.text('annotations'), file.display, [{ path: ['origin'], from: fixture.origin, to: text }])
    const after = await revision.propose(base, { annotations: edited })
    return { ...result, written: await after.commit(options.io ?? nodeWriteIo) }
  })
}
