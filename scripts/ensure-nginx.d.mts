// Types of ensure-nginx.mjs, for its test.
export declare const DEBIAN_NGINX: string
export declare const INSTALL: readonly [string, readonly string[]]
export declare const UPDATE: readonly [string, readonly string[]]

export interface EnsureNginxOptions {
  /** @default a regular file the user may execute */
  readonly isExecutable?: (path: string) => boolean
  /** @default process.getuid() === 0 */
  readonly isRoot?: boolean
  /** @default /usr/bin/apt-get is executable */
  readonly hasApt?: boolean
  /** Runs one command and returns its exit status. @default spawnSync with inherited output */
  readonly run?: (name: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>) => number | null
  /** @default console.log */
  readonly log?: (line: string) => void
  /** @default false */
  readonly dryRun?: boolean
}

export declare function ensureNginx(options?: EnsureNginxOptions): string | undefined
