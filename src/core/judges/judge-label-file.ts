import { RevisionError } from '../common/errors.js'
import { formatLocation } from '../common/json-path.js'
import { isObject } from '../common/primitives.js'
import { lineAndColumn, locateJsonSyntaxError } from '../json/json-syntax.js'
import { jsonStructureDetails, jsonStructureProblem } from '../json/json-structure.js'
import { decodeText, parseJsonFile, type RawFile } from '../json/read.js'
import type { DraftSource } from '../engine/authoring/draft.js'
import type { JudgeLabelDraft } from './judge-labels.js'

/** A file of many cases' labels is JSON Lines when its name ends so; any other name is read as JSON. */
export function isJsonLines(name: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(name)
}

const SHAPES = {
  json: '{ "<case id>": { "<criterion>": { "rating", "reason", "answer_span" } } }',
  jsonl: '{ "case": "<case id>", "judgements": { "<criterion>": { "rating", "reason", "answer_span" } } } on each line',
} as const

/**
 * The labels of a bulk import (`review <dir> --judge <name> --from <file>`), one per case: from
 * JSON, an object of label sets keyed by case id, or from JSON Lines (`.jsonl`, `.ndjson`), one
 * `{ "case", "judgements" }` per line (blank lines are skipped). A line or a value of another shape
 * refuses the file, naming the line or the key; the judgements themselves are checked when the
 * labels are recorded.
 */
export function readJudgeLabelFile(file: RawFile): JudgeLabelDraft[] {
  return isJsonLines(file.display) ? readLines(file) : readObject(file)
}

function readObject(file: RawFile): JudgeLabelDraft[] {
  const value = parseJsonFile(file)
  if (!isObject(value) || Array.isArray(value)) {
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: file.display,
      summary: 'the labels are not an object keyed by case id; nothing was written.',
      expected: SHAPES.json,
      found: Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value,
      hint: 'key each case\'s judgements by its id, or write one { "case", "judgements" } per line in a .jsonl file.',
    })
  }
  const source = fileSourceOf(file.display)
  return Object.entries(value).map(([caseId, draft]) => ({ caseId, draft, source, at: [caseId], place: formatLocation(file.display, [caseId]) }))
}

function readLines(file: RawFile): JudgeLabelDraft[] {
  const labels: JudgeLabelDraft[] = []
  const text = decodeText(file)
  if (text.charCodeAt(0) === 0xfeff) {
    throw new RevisionError({
      code: 'JSON_MALFORMED',
      file: `${file.display}:1:1`,
      summary: 'the file starts with a byte-order mark, which JSON Lines does not allow; nothing was written.',
      expected: 'the first label set from the first byte',
      found: 'the bytes EF BB BF (a UTF-8 byte-order mark, invisible in most editors)',
      hint: 'save the file as UTF-8 without a BOM (an editor setting: "UTF-8", not "UTF-8 with BOM").',
    })
  }
  const lines = text.split('\n')
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    const place = `${file.display}:${index + 1}`
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      const { offset, expected } = locateJsonSyntaxError(line)
      throw new RevisionError({
        code: 'JSON_MALFORMED',
        file: `${place}:${lineAndColumn(line, offset).column}`,
        summary: `line ${index + 1} is not JSON; nothing was written.`,
        expected,
        found: offset >= line.length ? 'the end of the line' : JSON.stringify(line.slice(offset, offset + 20)),
        hint: 'write each label set as one JSON object on one line (JSON Lines), with no line break inside it.',
      })
    }
    const structure = jsonStructureProblem(line)
    if (structure !== undefined) {
      const details = jsonStructureDetails(structure, place, (offset) => `column ${offset + 1}`)
      throw new RevisionError({ ...details, summary: `${details.summary.replace(/\.$/, '')}; nothing was written.` })
    }
    const problem = shapeProblem(value)
    if (problem !== undefined) {
      throw new RevisionError({
        code: 'DRAFT_INVALID',
        file: problem.key === undefined ? place : formatLocation(place, [problem.key]),
        summary: `${problem.summary}; nothing was written.`,
        expected: SHAPES.jsonl,
        found: problem.found,
        hint: 'give each line the case id and its judgements by criterion.',
      })
    }
    // Cast: the line was checked just above to be an object with a string case.
    const { case: caseId, judgements } = value as { case: string; judgements: unknown }
    labels.push({ caseId, draft: judgements, source: fileSourceOf(place), at: ['judgements'], place })
  })
  return labels
}

function shapeProblem(value: unknown): { key?: string; summary: string; found: string } | undefined {
  if (!isObject(value) || Array.isArray(value))
    return { summary: 'the line is not an object', found: Array.isArray(value) ? 'an array' : JSON.stringify(value) }
  const extra = Object.keys(value).find((key) => key !== 'case' && key !== 'judgements')
  if (extra !== undefined) return { key: extra, summary: `the line has a key "${extra}" a label set does not have`, found: JSON.stringify(extra) }
  if (typeof value['case'] !== 'string' || value['case'] === '')
    return { key: 'case', summary: 'the line names no case', found: value['case'] === undefined ? 'no "case"' : JSON.stringify(value['case']) }
  if (!isObject(value['judgements']) || Array.isArray(value['judgements'])) {
    return {
      key: 'judgements',
      summary: 'the line has no judgements by criterion',
      found: value['judgements'] === undefined ? 'no "judgements"' : JSON.stringify(value['judgements']),
    }
  }
  return undefined
}

function fileSourceOf(display: string): DraftSource {
  return { label: display, locate: (path) => formatLocation(display, path) }
}
