import type { WriteIo } from '../../json/atomic-write.js'
import type { ParseMemo } from '../parse-memo.js'
import type { KindRegistry } from '../registry.js'

/** The common options of a command that writes a fixture. */
export interface AuthoringOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** The kinds the directory may hold: the registry of the front end that starts from it. */
  readonly kinds: KindRegistry
  /**
   * Work out and check the change, write nothing.
   * @default false
   */
  readonly dryRun?: boolean
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
  /**
   * @internal what a long-lived front end (the page's server) parsed of the fixture already, by
   * the bytes of each file: the revision parses only the files whose bytes differ.
   */
  readonly memo?: ParseMemo
}
