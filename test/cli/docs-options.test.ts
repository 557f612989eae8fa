import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { COMMANDS } from '../../src/cli/main.js'
import { ROOT } from '../helpers/fixture-copy.js'

// A command line the docs show is one a reader copies: each option written after `vitest-rubric
// <command>`, in a code span or a line of a code block, is one that command takes.

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

test('every option the docs give a command is one the command takes', () => {
  const unknown: string[] = []
  let checked = 0
  for (const doc of DOCS) {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    const spans = [...[...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!), ...text.split('\n')]
    for (const span of spans)
      for (const [, name, rest] of span.matchAll(/vitest-rubric (\w+)((?: +[^\s`|;&]+)*)/g)) {
        const command = COMMANDS.get(name!)
        if (command === undefined) continue
        for (const [, option] of rest!.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) {
          checked++
          if (!Object.hasOwn(command.options, option!) && option !== 'help') unknown.push(`${doc}: vitest-rubric ${name} --${option}`)
        }
      }
  }
  expect(checked).toBeGreaterThan(100)
  expect([...new Set(unknown)]).toEqual([])
})
