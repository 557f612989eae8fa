// Types of ensure-chromium.mjs, for the tests and the browser helper that import it.
export declare const DEBIAN_CHROMIUM: string
export declare const PATH_NAMES: readonly string[]
export declare const INSTALL_COMMANDS: readonly (readonly [string, readonly string[]])[]

export type ChromiumLookup =
  | { readonly status: 'found'; readonly path: string; readonly via: string }
  | { readonly status: 'bad-override'; readonly path: string }
  | { readonly status: 'missing' }

export interface LookupOptions {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** @default a regular file the user may execute */
  readonly isExecutable?: (path: string) => boolean
}

export interface EnsureOptions extends LookupOptions {
  /** @default process.getuid() === 0 */
  readonly isRoot?: boolean
  /** Runs one command and returns its exit status. @default spawnSync with inherited output */
  readonly run?: (name: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>) => number | null
  /** @default console.log */
  readonly log?: (line: string) => void
  /** @default false */
  readonly dryRun?: boolean
}

export declare function isExecutableFile(path: string): boolean
export declare function findChromium(options?: LookupOptions): ChromiumLookup
export declare class ChromiumMissingError extends Error {}
export declare function ensureChromium(options?: EnsureOptions): string | undefined
