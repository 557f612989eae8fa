import { shownOrigin } from '../../core/common/origin.js'
import { loadFixture, kinds } from '../../core/registry.js'
import { setOrigin } from '../../core/engine/origin.js'
import { oneDir, stringOption, type Command } from '../command.js'

/** `vitest-rubric origin <dir> [--set <text>]`: who or what made a fixture's judgements, as annotations.json says. */
export const origin: Command = {
  name: 'origin',
  summary: 'show or set who or what made a fixture’s judgements (annotations.json › origin)',
  help: `Usage: vitest-rubric origin <dir> [--set <text>]

Prints annotations.json › origin: who or what made the fixture's judgements (a reviewer, a rating
study, an authored example), which evaluate, the reporter and the report print. A fixture made by
init holds a placeholder, printed as "not given". --set replaces it: under the fixture's lock, only
the origin's characters changed, the file replaced atomically; a fixture that does not load is
refused and nothing is written.

Options:
  --set <text>   the new origin

Exit codes: 0 when shown or set; 1 when the fixture is refused; 2 on a usage error (an empty origin).`,
  options: { set: { type: 'string' } },
  async run({ values, positionals }, io) {
    const dir = oneDir('origin', positionals)
    const text = stringOption(values, 'set')
    if (text === undefined) {
      const fixture = await loadFixture(dir, { cwd: io.cwd })
      const file = fixture.files.annotations.display
      io.stdout(`${file} › origin: ${shownOrigin(fixture.origin, file, fixture.displayDir)}`)
      return 0
    }
    const result = await setOrigin(dir, text, { cwd: io.cwd, kinds })
    io.stdout(
      result.written.length === 0
        ? `${result.file} › origin: already ${JSON.stringify(result.origin)}; nothing written`
        : `${result.file} › origin: set to ${JSON.stringify(result.origin)}\n  wrote ${result.written.join(', ')}`,
    )
    return 0
  },
}
