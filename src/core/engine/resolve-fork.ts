import { resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { RevisionError, UsageError } from '../common/errors.js'
import type { FileWrite, WriteIo } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { projectBoundary, readFixtureFile } from '../json/read.js'
import { RecordStore } from '../store/record-store.js'
import { caseIndex } from './case-index.js'
import { fixtureKindsIn, loadFixtureReading } from './fixture.js'
import { listDirectory } from './panel.js'
import { recordStoreOf, storeKeys } from './records-view.js'
import type { KindRegistry } from './registry.js'
import { reviseUnderLock } from './revision.js'

/** Options of {@link resolveFork}. */
export interface ResolveForkOptions {
  readonly cwd: string
  readonly kinds: KindRegistry
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** What to resolve: every forked record of a case, or a document's members (`documents.jsonl`). */
export type ForkTarget = { readonly caseId: string } | { readonly document: string }

/**
 * Settles a fork of a records-layout fixture: of each record revised apart, the revision that one
 * of the saves `keep` made is kept, by a new line that replaces every revision (alice's save keeps
 * her review, bob's his: together they must settle each forked record once). A document's fork
 * keeps one save's revision. Under the fixture's lock, one file written atomically.
 */
export async function resolveFork(
  dir: string,
  target: ForkTarget,
  keep: readonly string[],
  options: ResolveForkOptions,
): Promise<{ readonly written: readonly string[] }> {
  const { cwd, kinds } = options
  const absolute = resolve(cwd, dir)
  const display = displayPath(cwd, absolute)
  if ('document' in target && keep.length !== 1) {
    throw new UsageError({
      code: 'USAGE',
      file: display,
      summary: `a document keeps one revision, so --document takes one --keep, not ${keep.length}; nothing was written.`,
      hint: 'name the one save whose revision of the document is kept.',
    })
  }
  return reviseUnderLock(dir, cwd, async () => {
    let write: FileWrite
    if ('document' in target) {
      // A document fork refuses the fixture's load: its store is read on its own.
      const probe = await loadFixtureKind(kinds, dir, cwd)
      const store = await RecordStore.open(absolute, display, readFixtureFile, listDirectory, storeKeys(probe), true)
      if (store === undefined) throw notRecords(display)
      write = store.documentResolution(target.document, keep[0]!)
    } else {
      const fixture = await loadFixtureReading(kinds, dir, { cwd }, readFixtureFile)
      const store = recordStoreOf(fixture)
      if (store === undefined) throw notRecords(display)
      caseIndex(fixture, target.caseId, { hint: `name a case of the fixture: \`vitest-rubric status ${display}\` names every forked case.`, writing: true })
      if (!store.forks.some((fork) => fork.caseId === target.caseId)) {
        // A refusal of what the fixture holds, as for a document with no fork: not a wrong argument.
        throw new RevisionError({
          code: 'RECORDS_FORKED',
          file: display,
          caseId: target.caseId,
          summary: `case "${target.caseId}" has no records revised apart; nothing was written.`,
          hint: `\`vitest-rubric status ${display}\` names every forked case.`,
        })
      }
      write = store.resolution(target.caseId, keep)
    }
    await writeProjectFiles([write], { boundary: projectBoundary(cwd, absolute), lockDir: absolute, display, cwd, io: options.io })
    return { written: [write.display] }
  })
}

/** The kind of a fixture whose records may not load: told by its marker file alone. */
async function loadFixtureKind(kinds: KindRegistry, dir: string, cwd: string) {
  const found = await fixtureKindsIn(kinds, resolve(cwd, dir))
  if (found.length !== 1) return (await loadFixtureReading(kinds, dir, { cwd }, readFixtureFile)).definition
  return found[0]!
}

function notRecords(display: string): UsageError {
  return new UsageError({
    code: 'USAGE',
    file: display,
    summary: 'the fixture is in the seed layout, where nothing forks (git shows a conflict instead); nothing was written.',
    hint: 'resolve applies to a fixture in the records layout (`vitest-rubric convert <dir> --to records`).',
  })
}
