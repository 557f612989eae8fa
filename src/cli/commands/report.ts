import { displayPath } from '../../core/common/display-path.js'
import { writeReport } from '../../web/report.js'
import { minReviewsOption, usage, stringOption, type Command } from '../command.js'
import { fixtureDirs } from './status.js'

/** `vitest-rubric report --html <dir...>`: the static, read-only HTML report. */
export const report: Command = {
  name: 'report',
  summary: 'write a self-contained, read-only HTML report of fixtures (for CI artifacts)',
  help: `Usage: vitest-rubric report --html [dir...] [--out <file>] [--min-reviews <n>]

Writes one self-contained HTML file with the review page's overview and case views, without its
forms and without a server: it opens from file:// and can be uploaded as a CI artifact. Without
directories it reports the fixtures \`status\` finds under fixtures/.

Options:
  --html              write the HTML report (the only format)
  --out <file>        where to write it (default .vitest-rubric/report.html)
  --min-reviews <n>   the several-reviewer rule's minimum, as for evaluate

Exit codes: 0 when written; 2 on a usage error.`,
  options: { html: { type: 'boolean', default: false }, out: { type: 'string' }, 'min-reviews': { type: 'string' } },
  async run({ values, positionals }, io) {
    if (values['html'] !== true) throw usage('report', 'say which report: --html.')
    const dirs = positionals.length > 0 ? positionals : await fixtureDirs(io.cwd)
    if (dirs.length === 0) throw usage('report', 'no fixture directories: pass some.')
    const out = stringOption(values, 'out') ?? '.vitest-rubric/report.html'
    const path = await writeReport(dirs, io.cwd, out, { panel: { minReviews: minReviewsOption('report', values['min-reviews']) } })
    io.stdout(`wrote ${displayPath(io.cwd, path)}`)
    return 0
  },
}
