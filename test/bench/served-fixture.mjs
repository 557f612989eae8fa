// What the benchmarks of the review server share: a fixture generated in a process of its own (its
// garbage would otherwise be collected during what is measured, at some sizes and not others), in
// the layout asked for, and a request to the server with a token.
import { spawnSync } from 'node:child_process'
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'

const GENERATE = new URL('./generate.mjs', import.meta.url).href
const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url))

/** Generates `n` cases at `dir`, then converts them to the records layout when `layout` says so, with `convertArgs` (`--buckets`). */
export function generateServed(dir, n, layout, convertArgs = []) {
  const generated = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { generateFixture } from ${JSON.stringify(GENERATE)}; await generateFixture(${JSON.stringify(dir)}, ${n})`],
    { encoding: 'utf8' },
  )
  if (generated.status !== 0) throw new Error(`generating ${n} cases exited ${generated.status}: ${generated.stderr}`)
  if (layout !== 'records') return
  const converted = spawnSync(process.execPath, [BIN, 'convert', dir, '--to', 'records', ...convertArgs], { encoding: 'utf8' })
  if (converted.status !== 0) throw new Error(`convert exited ${converted.status}: ${converted.stderr}`)
}

/** A request to the server on `port` with `token`: its answer parsed, or an error naming the path and the status. */
export function call(port, token, path, body) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const headers = { 'x-rubric-token': token, 'content-type': 'application/json' }
    const sent = request({ host: '127.0.0.1', port, path, method: text === undefined ? 'GET' : 'POST', headers }, (response) => {
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        if (response.statusCode !== 200) reject(new Error(`${path}: ${response.statusCode} ${raw}`))
        else resolve(JSON.parse(raw))
      })
    })
    sent.on('error', reject)
    sent.end(text)
  })
}
