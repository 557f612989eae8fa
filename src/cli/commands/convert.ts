import { convertFixture, type FixtureLayout } from '../../core/engine/convert-layout.js'
import { isOneOf } from '../../core/common/primitives.js'
import { kinds } from '../../core/registry.js'
import { oneDir, stringOption, usage, type Command } from '../command.js'

const LAYOUTS: readonly FixtureLayout[] = ['records', 'seed']

/** `vitest-rubric convert <dir> --to records|seed`: moves a fixture between its two layouts, losslessly. */
export const convert: Command = {
  name: 'convert',
  summary: 'move a fixture between the seed layout and the records layout, losslessly',
  help: `Usage: vitest-rubric convert <dir> --to records|seed [--buckets <n>]

Moves a fixture's cases, reviews, judge labels and adoptions between the two layouts:

  seed      cases.json, annotations.json, reviews/<name>.json, judges/<name>.json and
            adjudications.json, as the seed's reference reads them
  records   records/: one line per case, review, label or adoption, filed by case in bucket
            files, so that a save costs what it changes and git merges work on different cases
            (records/.gitattributes: *.jsonl merge=union eol=lf)

The rubric and source stay as they are. Under the fixture's lock and all or nothing: the new layout
is read back first and must give every document byte for byte, so converting back gives the same
bytes and the same decisions; a fixture that cannot be moved so is refused and nothing is written.

Options:
  --to <layout>    records or seed
  --buckets <n>    bucket files of the records layout, a power of two (default: about a thousand
                   cases a file, at least 16)

Exit codes: 0 when converted (or already in that layout); 1 when the fixture is refused; 2 on a usage error.`,
  options: { to: { type: 'string' }, buckets: { type: 'string' } },
  async run({ values, positionals }, io) {
    const dir = oneDir('convert', positionals)
    const to = stringOption(values, 'to')
    if (to === undefined || !isOneOf(LAYOUTS, to))
      throw usage('convert', `--to takes ${LAYOUTS.join(' or ')}${to === undefined ? '' : `, not ${JSON.stringify(to)}`}.`)
    const given = stringOption(values, 'buckets')
    const buckets = given === undefined ? undefined : Number(given)
    if (buckets !== undefined && (!/^[1-9][0-9]*$/.test(given ?? '') || buckets > 4096 || (buckets & (buckets - 1)) !== 0))
      throw usage('convert', `--buckets takes a power of two from 1 to 4096, not ${JSON.stringify(given)}.`)
    if (buckets !== undefined && to !== 'records') throw usage('convert', '--buckets applies to --to records only.')
    const result = await convertFixture(dir, to, { cwd: io.cwd, kinds, ...(buckets === undefined ? {} : { buckets }) })
    if (result.from === result.to) {
      io.stdout(`${result.dir}: already in the ${result.to} layout; ${result.written.length === 0 ? 'nothing written' : `wrote ${result.written.join(', ')}`}`)
      return 0
    }
    const lines = [
      `${result.dir}: converted from the ${result.from} layout to the ${result.to} layout${result.buckets === undefined ? '' : ` (${result.buckets} bucket files)`}`,
    ]
    lines.push(`  wrote ${result.written.length} files, removed ${result.removed.length}: ${result.removed.join(', ')}`)
    io.stdout(lines.join('\n'))
    return 0
  },
}
