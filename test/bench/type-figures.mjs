// Prints figures of how much the type checker is told rather than shown, and how the engine and
// the kinds depend on each other:
//
// - circle: the files of `src/core/engine` and `src/core/kinds` that lie on one import cycle
//   (type and value imports alike), as strongly connected components of the import graph of `src/`;
// - engine → kinds: the files of `src/core/engine` that import from `src/core/kinds`;
// - definitionOf: calls of `definitionOf` in `src/core/engine`;
// - any: the `any` keyword in `src/` (types and comments excluded: only type nodes count);
// - as: `as` casts in `src/` (`as const` excluded), how many have no reason (a `// … cast …` comment on
//   their line or the line above), and how many name `LoadedFixture<…>`;
// - !: non-null assertions in `src/`.
//
// node test/bench/type-figures.mjs [--json] [--list]   (--list: each cast without a reason, by place)
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const src = join(root, 'src')

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return walk(path)
    return /\.(m?ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const files = walk(src)
const known = new Set(files)
const imports = new Map()
const figures = { any: 0, as: 0, asWithoutReason: 0, asLoadedFixture: 0, nonNull: 0, definitionOfInEngine: 0 }
const asByFile = new Map()
const unexplained = []
const inEngine = (file) => file.startsWith(`${join(src, 'core/engine')}/`)
const inKinds = (file) => file.startsWith(`${join(src, 'core/kinds')}/`)

for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const targets = new Set()
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts')
        if (known.has(target)) targets.add(target)
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const target = resolve(dirname(file), node.argument.literal.text).replace(/\.js$/, '.ts')
      if (known.has(target)) targets.add(target)
    }
    if (node.kind === ts.SyntaxKind.AnyKeyword) figures.any++
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const type = node.type
      const isConst = ts.isTypeReferenceNode(type) && type.typeName.getText(source) === 'const'
      if (!isConst) {
        figures.as++
        asByFile.set(file, (asByFile.get(file) ?? 0) + 1)
        // A reason is a comment naming the cast on its line or the line above.
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
        const lines = text.split('\n')
        if (!/\/\/.*\bcast\b/i.test(`${lines[line - 1] ?? ''}\n${lines[line] ?? ''}`)) {
          figures.asWithoutReason++
          unexplained.push(`${relative(root, file)}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 120)}`)
        }
        if (type.getText(source).startsWith('LoadedFixture<')) figures.asLoadedFixture++
      }
    }
    if (ts.isNonNullExpression(node)) figures.nonNull++
    if (inEngine(file) && ts.isCallExpression(node) && node.expression.getText(source) === 'definitionOf') figures.definitionOfInEngine++
    ts.forEachChild(node, visit)
  }
  visit(source)
  imports.set(file, targets)
}

// Tarjan's strongly connected components.
let index = 0
const stack = []
const state = new Map()
const components = []
function connect(file) {
  const entry = { index, low: index, onStack: true }
  index++
  state.set(file, entry)
  stack.push(file)
  for (const target of imports.get(file) ?? []) {
    const seen = state.get(target)
    if (!seen) {
      connect(target)
      entry.low = Math.min(entry.low, state.get(target).low)
    } else if (seen.onStack) entry.low = Math.min(entry.low, seen.index)
  }
  if (entry.low === entry.index) {
    const component = []
    let member
    do {
      member = stack.pop()
      state.get(member).onStack = false
      component.push(member)
    } while (member !== file)
    components.push(component)
  }
}
for (const file of files) if (!state.has(file)) connect(file)

const circle = components
  .filter((component) => component.some(inEngine) && component.some(inKinds))
  .flat()
  .filter((file) => inEngine(file) || inKinds(file))
const engineImportsKinds = files.filter((file) => inEngine(file) && [...imports.get(file)].some(inKinds))
const cycles = components.filter((component) => component.length > 1).map((component) => component.map((file) => relative(src, file)).sort())

const result = {
  'files in the engine↔kinds circle': circle.length,
  'engine files importing core/kinds': engineImportsKinds.length,
  'definitionOf calls in core/engine': figures.definitionOfInEngine,
  'any in src/': figures.any,
  'as casts in src/ (as const excluded)': figures.as,
  'as casts without a reason (a comment naming the cast)': figures.asWithoutReason,
  'as LoadedFixture<…> casts': figures.asLoadedFixture,
  'non-null ! in src/': figures.nonNull,
}
if (process.argv.includes('--list')) for (const place of unexplained) console.log(place)
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...result, cycles, engineImportsKinds: engineImportsKinds.map((file) => relative(src, file)) }, null, 2))
} else {
  for (const [name, value] of Object.entries(result)) console.log(`${String(value).padStart(5)}  ${name}`)
  if (process.argv.includes('--cycles')) for (const cycle of cycles) console.log(`cycle (${cycle.length}): ${cycle.join(', ')}`)
  if (process.argv.includes('--casts'))
    for (const [file, count] of [...asByFile].sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(4)} ${relative(src, file)}`)
}
