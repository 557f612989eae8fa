import { bindFixture, type BindResult } from '../core/revisions/bind.js'
import type { WriteIo } from '../core/atomic-write.js'

export interface BindCommandOptions {
  readonly dir: string
  readonly cases: readonly string[] | 'all'
  readonly dryRun: boolean
  readonly cwd: string
  /** @internal */
  readonly io?: WriteIo
}

/** `vitest-rubric bind <dir> --case <id>… | --all [--dry-run]`: the explicit revision, hash by hash. */
export async function bindCommand(options: BindCommandOptions): Promise<string> {
  const result = await bindFixture(options.dir, options)
  return formatBind(result, options.dryRun)
}

export function formatBind(result: BindResult, dryRun: boolean): string {
  const lines: string[] = []
  const changed = result.cases.filter((each) => each.changes.length > 0)
  for (const each of result.cases) {
    if (each.changes.length === 0) {
      lines.push(`${each.id}: already bound to the current files (${each.decision})`)
      continue
    }
    lines.push(`${each.id}: ${dryRun ? 'would bind' : 'bound'}, then decided ${each.decision}`)
    for (const change of each.changes) lines.push(`  ${change.location}`, `    ${change.from}`, `  → ${change.to}`)
  }
  if (result.skipped.length > 0) lines.push(`skipped, no review to bind: ${result.skipped.join(', ')}`)
  if (result.cases.length === 0 && result.skipped.length === 0) lines.push('no cases to bind')
  if (dryRun) lines.push(changed.length === 0 ? 'dry run: nothing to change' : `dry run: nothing was written (${changed.length} ${changed.length === 1 ? 'case' : 'cases'} would change)`)
  else lines.push(result.written.length === 0 ? 'nothing to change: no file was written' : `wrote ${result.written.join(' and ')}`)
  return `${result.dir}\n${lines.map((line) => `  ${line}`).join('\n')}`
}
