// Lost saves under concurrent writers: `node test/bench/concurrent-saves.mjs [bin] [rounds]`.
// Each round copies the bundled docuctl lab, adds 20 cases, and runs four writers in processes of
// their own (two page clients through `serve`, two command lines), 50 saves each (test/helpers/save-load.mjs).
// It prints, per round, the saves written, refused and lost (written, then gone from the files).
// `bin` defaults to this checkout's dist/cli/bin.js, so the same load can be run on another build.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { loadCases, lostSaves, runSaveLoad } from '../helpers/save-load.mjs'

const root = resolve(import.meta.dirname, '../..')
const bin = resolve(process.argv[2] ?? join(root, 'dist/cli/bin.js'))
const rounds = Number(process.argv[3] ?? 3)
for (let round = 1; round <= rounds; round++) {
  const cwd = mkdtempSync(join(tmpdir(), 'rubric-saves-'))
  try {
    cpSync(join(root, 'fixtures/docuctl-rollback'), join(cwd, 'lab'), { recursive: true })
    writeFileSync(join(cwd, 'cases.json'), JSON.stringify(loadCases()))
    execFileSync(process.execPath, [bin, 'add', 'lab', '--from', 'cases.json'], { cwd })
    const result = await runSaveLoad({ bin, dir: 'lab', cwd })
    const written = result.outcomes.filter((outcome) => outcome.ok).length
    const lost = lostSaves(result).length
    // Every file must still load, and no case may be refused (a half-applied save is).
    const evaluated = spawnSync(process.execPath, [bin, 'evaluate', 'lab', '--json'], { cwd, encoding: 'utf8' })
    const refused = evaluated.stdout.match(/"status": ?"refused"/g)?.length ?? 0
    const status = evaluated.stdout.trim().startsWith('{') ? 'files valid' : `evaluate failed: ${evaluated.stderr.trim().split('\n')[0]}`
    console.log(
      `round ${round}: ${result.outcomes.length} saves, ${written} written, ${result.outcomes.length - written} refused, ${lost} lost; cases refused afterwards: ${refused}; ${status}`,
    )
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}
