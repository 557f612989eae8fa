import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { main } from '../../src/cli/main.js'
import { ROOT } from './fixture-copy.js'

/** Runs the command line in this process, capturing its output and exit code. */
export async function runCli(argv: readonly string[], cwd: string = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd })
  return { code, stdout, stderr }
}

/** Runs the built command line (`dist/cli/bin.js`) in a process of its own, as a user does: judge modules, locks and exits are its own. */
export function runBuiltCli(cwd: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli/bin.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
