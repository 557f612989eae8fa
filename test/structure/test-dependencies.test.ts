// The README's test command runs on a fresh machine with plain python3 and no Python package:
// whatever Python a test runs (a .py file under test/, or a script inside a test's source) imports
// only the standard library. Reference values from statsmodels, scikit-learn, SciPy and NumPy are
// committed data (test/reference/), and their generators are the files allowed to import them.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const GENERATORS = new Set(['test/reference/generate.py', 'test/reference/generate_ppi.py', 'test/reference/generate_ppi_paired.py'])

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return files(path)
    return /\.(ts|mts|mjs|py)$/.test(entry.name) ? [relative(ROOT, path)] : []
  })
}

/** Python's `import a, b` and `from a import b`, on a line of their own or at the start of a string. */
const PYTHON_IMPORT =
  /(?:^|['"]|\\n)[ \t]*(?:import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*(?=$|['"`;]|\\n)|from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b)/gm

function pythonImports(): { file: string; module: string }[] {
  const found: { file: string; module: string }[] = []
  const sources = [...files(join(ROOT, 'test')), ...files(join(ROOT, 'scripts'))]
  // A .py file of the tests' own (test/helpers/reference_decisions.py) is no package.
  const own = new Set(sources.filter((file) => file.endsWith('.py')).map((file) => basename(file, '.py')))
  for (const file of sources) {
    if (GENERATORS.has(file)) continue
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(PYTHON_IMPORT)) {
      for (const name of (match[1] ?? match[2] ?? '').split(',')) {
        const module = name.trim().split('.')[0] as string
        if (!own.has(module)) found.push({ file, module })
      }
    }
  }
  return found
}

test('the Python the tests run imports only the standard library', () => {
  const imports = pythonImports()
  // The reference fingerprint and the terminal driver are Python: the search must find them.
  expect(imports).toContainEqual({ file: 'test/helpers/python-reference.ts', module: 'hashlib' })
  expect(imports).toContainEqual({ file: 'test/helpers/pty_drive.py', module: 'pty' })
  const modules = [...new Set(imports.map(({ module }) => module))]
  const check = spawnSync('python3', ['-c', 'import json, sys; print(json.dumps([m for m in json.load(sys.stdin) if m not in sys.stdlib_module_names]))'], {
    input: JSON.stringify(modules),
    encoding: 'utf8',
  })
  expect(check.status, check.stderr).toBe(0)
  const packages = new Set(JSON.parse(check.stdout) as string[])
  expect(
    imports.filter(({ module }) => packages.has(module)),
    `these need Python packages a fresh machine lacks: commit reference values computed by a generator under test/reference/ instead`,
  ).toEqual([])
})

test('no test runs R', () => {
  const runsR = files(join(ROOT, 'test')).filter((file) =>
    /\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"`](?:R|Rscript)\b/.test(readFileSync(join(ROOT, file), 'utf8')),
  )
  expect(runsR).toEqual([])
})
