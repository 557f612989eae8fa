// Many writers saving reviews of one fixture at once, each in a process of its own: the review
// page's server, page clients that read a case and save it as the page does, and command lines
// running `review`. Each writer owns some entries (a case's adopted review, or one reviewer's review
// of a case) and saves them again and again; writers share the files. Afterwards every entry must
// hold the last save that was reported as written.
//
// As a module: `runSaveLoad({ bin, dir, cwd })` runs the load and returns what every save reported
// and what the files hold. As a script (`node save-load.mjs driver <json>`) it is one writer.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const CASES = Array.from({ length: 20 }, (_, index) => `c${String(index).padStart(2, '0')}`)

/** The cases the load adds to a fixture copied from the bundled docuctl lab, for `add --from`. */
export function loadCases() {
  return CASES.map((id) => ({
    id,
    answer: `Answer ${id}: get release approval, confirm staging, run \`docuctl releases rollback r41 --environment staging\`, then check service health.`,
    citation: 'Fictional docuctl 3 guide: staging rollback to r41',
  }))
}

/**
 * Four writers, fifty saves each: two page clients through the server and two command lines. The
 * adopted reviews of c00–c09 are shared by a page client (c00–c04) and a command line (c05–c09);
 * alice's reviews of c10–c19 likewise. So annotations.json, cases.json and reviews/alice.json
 * are each written by two processes at once, and no two writers ever save the same entry.
 */
export function writers(savesEach = 50) {
  return [
    { name: 'page-adopted', via: 'page', reviewer: null, cases: CASES.slice(0, 5), saves: savesEach },
    { name: 'cli-adopted', via: 'cli', reviewer: null, cases: CASES.slice(5, 10), saves: savesEach },
    { name: 'page-alice', via: 'page', reviewer: 'alice', cases: CASES.slice(10, 15), saves: savesEach },
    { name: 'cli-alice', via: 'cli', reviewer: 'alice', cases: CASES.slice(15, 20), saves: savesEach },
  ]
}

/** Starts `serve` in a process of its own and resolves with its URL once it listens. */
function startServe(bin, dir, cwd) {
  const child = spawn(process.execPath, [bin, 'serve', dir, '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.on('line', (line) => {
      const url = /https?:\/\/\S+token=\S+/.exec(line)?.[0]
      if (url !== undefined) resolve({ child, url: new URL(url) })
    })
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it listened: ${stderr}`)))
  })
}

function runWriter(writer, context) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, 'driver', JSON.stringify({ ...writer, ...context })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`writer ${writer.name} exited with ${code}: ${stderr}`))
      resolve(
        stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      )
    })
  })
}

/**
 * Runs the load on the fixture `dir` (relative to `cwd`, holding the cases of `loadCases`) with the
 * command line `bin`. Returns every save's outcome, and per entry the reason the files hold now.
 */
export async function runSaveLoad({ bin, dir, cwd, savesEach = 50 }) {
  const { child, url } = await startServe(bin, dir, cwd)
  try {
    const context = { bin, dir, cwd, origin: url.origin, token: url.searchParams.get('token') }
    const outcomes = (await Promise.all(writers(savesEach).map((writer) => runWriter(writer, context)))).flat()
    return { outcomes, held: await heldReasons(join(cwd, dir)) }
  } finally {
    child.kill('SIGINT')
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))
  }
}

/** `entry -> reason of support` for every review in annotations.json and reviews/alice.json. */
export async function heldReasons(dir) {
  const held = new Map()
  const read = async (file) => JSON.parse(await readFile(join(dir, file), 'utf8').catch(() => '{"reviews":[]}'))
  for (const review of (await read('annotations.json')).reviews) held.set(`adopted ${review.answer_id}`, review.judgements?.support?.reason)
  for (const review of (await read('reviews/alice.json')).reviews) held.set(`alice ${review.answer_id}`, review.judgements?.support?.reason)
  return held
}

/** The saves reported as written whose entry holds something else now: lost saves. */
export function lostSaves({ outcomes, held }) {
  const last = new Map()
  for (const outcome of outcomes) if (outcome.ok) last.set(outcome.entry, outcome)
  return [...last.values()].filter((outcome) => held.get(outcome.entry) !== outcome.reason)
}

function draft(reason) {
  return Object.fromEntries(
    CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: criterion === 'support' ? reason : `Meets ${criterion}.`, answer_span: '' }]),
  )
}

async function pageSave(context, id, reason) {
  const headers = { 'x-rubric-token': context.token, 'content-type': 'application/json' }
  const viewer = context.reviewer === null ? 'reader' : `reviewer:${context.reviewer}`
  const read = await fetch(`${context.origin}/api/case?fixture=0&id=${id}&viewer=${viewer}`, { headers })
  const shown = await read.json()
  const body = {
    fixture: 0,
    id,
    draft: draft(reason),
    versions: shown.versions,
    replace: true,
    ...(context.reviewer === null ? {} : { reviewer: context.reviewer }),
  }
  const saved = await fetch(`${context.origin}/api/review`, { method: 'POST', headers, body: JSON.stringify(body) })
  const answer = await saved.json()
  return { ok: saved.status === 200, status: saved.status, message: answer.error?.message ?? null }
}

async function cliSave(main, context, id, reason) {
  const argv = ['review', context.dir, '--case', id, '--replace', ...(context.reviewer === null ? [] : ['--reviewer', context.reviewer])]
  for (const [criterion, judgement] of Object.entries(draft(reason)))
    argv.push('--rating', `${criterion}=${judgement.rating}`, '--reason', `${criterion}=${judgement.reason}`, '--span', `${criterion}=`)
  let stderr = ''
  const code = await main(argv, { stdout: () => undefined, stderr: (text) => (stderr += text), cwd: context.cwd })
  return { ok: code === 0, status: code, message: code === 0 ? null : stderr.trim() }
}

async function drive(context) {
  const main = context.via === 'cli' ? (await import(pathToFileURL(join(context.bin, '../main.js')).href)).main : undefined
  for (let index = 0; index < context.saves; index++) {
    const id = context.cases[index % context.cases.length]
    const reason = `${context.name} save ${index}`
    const outcome = main === undefined ? await pageSave(context, id, reason) : await cliSave(main, context, id, reason)
    process.stdout.write(`${JSON.stringify({ writer: context.name, entry: `${context.reviewer ?? 'adopted'} ${id}`, reason, ...outcome })}\n`)
  }
}

if (process.argv[2] === 'driver') await drive(JSON.parse(process.argv[3]))
