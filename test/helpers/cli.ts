import { main } from '../../src/cli/main.js'
import { ROOT } from './fixture-copy.js'

/** Runs the command line in this process, capturing its output and exit code. */
export async function runCli(argv: readonly string[], cwd: string = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd })
  return { code, stdout, stderr }
}
