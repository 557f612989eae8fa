import { kinds } from '../core/registry.js'
import { IncrementalEvaluation, type EvaluationChange } from '../core/engine/incremental.js'
import type { EvaluateOptions } from '../core/engine/evaluate.js'

/**
 * In watch mode, each fixture stays loaded and decided from one run to the next: a rerun after an
 * edit reads the files whose bytes changed and decides again only the cases the edit touched, and
 * the plan of the whole fixture is made from those decisions (no plan cache, no planning process).
 */
export class KeptEvaluations {
  private readonly byDir = new Map<string, Promise<IncrementalEvaluation>>()

  constructor(
    private readonly root: string,
    private readonly options: EvaluateOptions,
  ) {}

  /** The fixture's evaluation, up to date with its files: opened on first use, refreshed after. */
  async current(dir: string): Promise<IncrementalEvaluation> {
    const kept = this.byDir.get(dir)
    if (kept === undefined) return this.open(dir)
    const evaluation = await kept
    await evaluation.refresh()
    return evaluation
  }

  /** Whether a fixture directory is kept (its first run opened it). */
  has(dir: string): boolean {
    return this.byDir.has(dir)
  }

  /**
   * Brings a kept fixture up to date and says what changed, with the number of its cases before;
   * `undefined` for a fixture not kept (the next run opens it).
   */
  async refresh(
    dir: string,
  ): Promise<{ readonly evaluation: IncrementalEvaluation; readonly change: EvaluationChange; readonly casesBefore: number } | undefined> {
    const kept = this.byDir.get(dir)
    if (kept === undefined) return undefined
    const evaluation = await kept
    const casesBefore = evaluation.fixture.cases.length
    return { evaluation, change: await evaluation.refresh(), casesBefore }
  }

  private open(dir: string): Promise<IncrementalEvaluation> {
    const opened = IncrementalEvaluation.open(kinds, dir, { cwd: this.root, ...this.options })
    this.byDir.set(dir, opened)
    // A fixture refused as a whole is opened again by the next run, once it may be fixed.
    opened.catch(() => {
      if (this.byDir.get(dir) === opened) this.byDir.delete(dir)
    })
    return opened
  }
}
