import { formatLocation, type PathSegment } from '../../core/common/json-path.js'
import { fileSource, type DraftSource } from '../../core/engine/authoring/draft.js'
import type { AddResult } from '../../core/engine/authoring/add.js'
import { addCases } from '../../core/registry.js'
import { RevisionError } from '../../core/common/errors.js'
import { decodeText, parseJsonFile } from '../../core/json/read.js'
import { oneDir, readOptionFile, usage, stringOption, stringOptions, type Command } from '../command.js'
import { resolve } from 'node:path'
import { displayPath } from '../../core/common/display-path.js'
import { UsageError } from '../../core/common/errors.js'
import { fixtureKindsIn } from '../../core/engine/fixture.js'
import { kinds } from '../../core/registry.js'

/** The options that become fields of the case: each names its field, and how a problem of it is named back. */
const FIELDS = ['id', 'answer', 'citation', 'split', 'question'] as const
const FILE_FIELDS = ['spec', 'outputs'] as const

/** The options each kind's case is given by, and how its usage line gives them. */
const KIND_OPTIONS: Readonly<
  Record<string, { readonly options: readonly string[]; readonly required: readonly (readonly string[])[]; readonly usage: string }>
> = {
  criteria: {
    options: ['answer', 'answer-file', 'citation', 'question'],
    // Each entry: one of these options must be given.
    required: [['answer', 'answer-file'], ['citation']],
    usage: '--id <id> (--answer <text> | --answer-file <file>) --citation <text>',
  },
  scored: { options: ['spec', 'outputs'], required: [['spec'], ['outputs']], usage: '--id <id> --spec <spec.json> --outputs <outputs.json>' },
}

/** `vitest-rubric add <dir> …`: a new case, its expected hashes written by the command. */
export const add: Command = {
  name: 'add',
  summary: 'add a case to cases.json, its expected hashes written for you (pending until reviewed)',
  help: `Usage: vitest-rubric add <dir> --id <id> (--answer <text> | --answer-file <file>) --citation <text>
                         [--split held_out] [--question <text>]
       vitest-rubric add <dir> --id <id> --spec <spec.json> --outputs <outputs.json>   (scored)
       vitest-rubric add <dir> --from <cases.json>

Adds a case to the fixture's cases.json and writes its expected hashes (the source and rubric as
they are, and "no review yet"), so the new case is decided at once: pending, with no review. A
criteria case asks the rubric's task: --question may be left out, and a different one is refused.
A scored case takes its spec and the outputs of both systems from JSON files. --from adds several
cases in one run from a JSON list: { id, answer, citation, split? } for a criteria fixture,
{ id, spec, outputs } for a scored one. A duplicate id, an empty answer, or any case that would be
refused refuses the whole call, and nothing is written.

Options:
  --id <id>              the new case's id, unique in cases.json
  --answer <text>        the answer under review
  --answer-file <file>   the answer, read from a UTF-8 file (its final newline kept; a byte-order mark refused)
  --citation <text>      the source the answer cites
  --split <split>        development (the default) or held_out
  --question <text>      the question; it must be the rubric's task, which is the default
  --spec <file>          scored: the case's spec, a JSON file
  --outputs <file>       scored: the outputs of both systems, a JSON file
  --from <file>          a JSON list of cases to add
  --dry-run              check and print, write nothing

Exit codes: 0 when added; 1 when refused, with nothing written; 2 on a usage error.`,
  options: {
    ...stringOptions('id', 'answer', 'answer-file', 'citation', 'split', 'question', 'spec', 'outputs', 'from'),
    'dry-run': { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('add', positionals)
    const dryRun = values['dry-run'] === true
    const from = stringOption(values, 'from')
    const given = [...FIELDS, ...FILE_FIELDS, 'answer-file'].filter((name) => values[name] !== undefined)
    if (from !== undefined) {
      if (given.length > 0) throw usage('add', `--from holds the cases: leave out ${given.map((name) => `--${name}`).join(', ')}.`)
      const file = await readOptionFile(io.cwd, 'from', from)
      const list = parseJsonFile(file)
      if (!Array.isArray(list)) throw usage('add', `${file.display} must hold a JSON list of cases, [ { … }, … ].`)
      // The core names a lone draft's fields as the options name them; in a file, the draft is still the list's first element.
      const source = fileSource(file.display)
      const listed = list.length === 1 ? { ...source, locate: (path: readonly PathSegment[]) => source.locate([0, ...path]) } : source
      io.stdout(formatAdd(await addCases(dir, list, listed, { cwd: io.cwd, dryRun }), dryRun))
      return 0
    }
    if (values['id'] === undefined) throw usage('add', 'name the new case with --id <id>, or pass --from <file>.')
    await checkKindOptions(values, dir, io.cwd)
    if (values['answer'] !== undefined && values['answer-file'] !== undefined) throw usage('add', 'give the answer with --answer or --answer-file, not both.')
    const draft: Record<string, unknown> = {}
    for (const name of FIELDS) if (typeof values[name] === 'string') draft[name] = values[name]
    const answerFile = stringOption(values, 'answer-file')
    const files = new Map<string, string>()
    if (answerFile !== undefined) {
      const file = await readOptionFile(io.cwd, 'answer-file', answerFile)
      const answer = decodeText(file)
      draft['answer'] = answer
      // An editor's byte-order mark would be the answer's first character, invisible, and part of its fingerprint.
      if (answer.charCodeAt(0) === 0xfeff) {
        throw new RevisionError({
          code: 'DRAFT_INVALID',
          file: file.display,
          summary:
            'the answer file starts with a byte-order mark, which would be the first character of the answer and of its fingerprint; nothing was written.',
          expected: 'the answer from the first byte',
          found: 'the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)',
          hint: 'save the file as UTF-8 without a BOM (an editor setting: "UTF-8", not "UTF-8 with BOM").',
        })
      }
      files.set('answer', `--answer-file ${answerFile}`)
    }
    for (const name of FILE_FIELDS) {
      const path = stringOption(values, name)
      if (path === undefined) continue
      const file = await readOptionFile(io.cwd, name, path)
      draft[name] = parseJsonFile(file)
      files.set(name, file.display)
    }
    io.stdout(formatAdd(await addCases(dir, [draft], optionSource(files), { cwd: io.cwd, dryRun }), dryRun))
    return 0
  },
}

/**
 * Refuses options of another kind's case than the fixture's (`--spec` on a criteria fixture), naming
 * the kind they belong to and the options this fixture's kind takes, and a case missing an option its
 * kind requires, as usage errors; a directory of no one kind is left to the command's load to report.
 */
async function checkKindOptions(values: Readonly<Record<string, unknown>>, dir: string, cwd: string): Promise<void> {
  const found = await fixtureKindsIn(kinds, resolve(cwd, dir))
  const own = found.length === 1 ? KIND_OPTIONS[found[0]!.name] : undefined
  if (own === undefined) return
  const kind = found[0]!.name
  for (const [other, { options }] of Object.entries(KIND_OPTIONS)) {
    if (other === kind) continue
    const given = options.filter((option) => values[option] !== undefined).map((option) => `--${option}`)
    if (given.length === 0) continue
    throw new UsageError({
      code: 'USAGE',
      file: displayPath(cwd, dir),
      summary: `${given.join(' and ')} ${given.length === 1 ? 'gives' : 'give'} a case of a ${other} fixture, and this is a ${kind} fixture.`,
      expected: `a ${kind} case: \`vitest-rubric add ${displayPath(cwd, dir)} ${own.usage}\``,
      found: given.join(', '),
      hint: `leave out ${given.join(' and ')}, and give the case with the options of a ${kind} case above (${own.options.map((option) => `--${option}`).join(', ')}).`,
    })
  }
  const missing = own.required
    .filter((options) => options.every((option) => values[option] === undefined))
    .map((options) => options.map((option) => `--${option}`).join(' or '))
  if (missing.length > 0) {
    throw new UsageError({
      code: 'USAGE',
      file: displayPath(cwd, dir),
      summary: `a new ${kind} case needs ${missing.join(' and ')}.`,
      expected: `\`vitest-rubric add ${displayPath(cwd, dir)} ${own.usage}\`, or --from <file> with whole cases`,
      found: `no ${missing.join(' and no ')}`,
      hint: `give ${missing.join(' and ')}.`,
    })
  }
}

/** A case given as options: a field is named by its option, a place inside a JSON file by the file and path. */
function optionSource(files: ReadonlyMap<string, string>): DraftSource {
  return {
    label: 'the options',
    locate(path: readonly PathSegment[]) {
      const [field, ...inner] = path
      if (field === undefined) return 'the options'
      const file = files.get(String(field))
      if (file !== undefined) return inner.length === 0 || file.startsWith('--') ? file : formatLocation(file, inner)
      return `--${String(field)}`
    },
  }
}

/** What `add` did: each case with its decision, then the file written. */
export function formatAdd(result: AddResult, dryRun: boolean): string {
  const lines = result.added.map((each) => `  ${dryRun ? 'would add' : 'added'} ${each.id}: ${each.decision}`)
  lines.push(dryRun ? '  dry run: nothing was written' : `  wrote ${result.written.join(' and ')}`)
  return `${result.dir}\n${lines.join('\n')}`
}
