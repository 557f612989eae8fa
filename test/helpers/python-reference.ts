import { spawnSync } from 'node:child_process'

/**
 * The reference fingerprint, computed by python3 with the definition the specification publishes:
 * sha256(json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(',', ':')).encode()).
 * Values travel as JSON text, so Python sees integers as int and other numbers as float, as it
 * would reading the fixture files.
 */
export function pythonFingerprints(values: readonly unknown[]): { fingerprints: string[]; texts: string[] } {
  const script = [
    'import hashlib, json, sys',
    "values = json.loads(sys.stdin.buffer.read().decode('utf-8'))",
    "texts = [json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(',', ':')) for v in values]",
    "json.dump({'texts': texts, 'fingerprints': [hashlib.sha256(t.encode()).hexdigest() for t in texts]}, sys.stdout)",
  ].join('\n')
  const result = spawnSync('python3', ['-c', script], { input: JSON.stringify(values), encoding: 'utf8', maxBuffer: 64 << 20 })
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(`python3 is needed for the reference fingerprint: ${result.error?.message ?? result.stderr}`)
  }
  return JSON.parse(result.stdout) as { fingerprints: string[]; texts: string[] }
}
