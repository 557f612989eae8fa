import { dirname } from 'node:path'
/** The `origin` of a new `annotations.json` (`init`): text to replace with who or what made the judgements. */
export const ORIGIN_PLACEHOLDER = 'Say who or what made these judgements (a reviewer, a rating study, an authored example).'

const JUDGE_PLACEHOLDER = /^Labels by the automated judge .+: say which model and which revision of its prompt\.$/su

/** The `origin` of a new `judges/<judge>.json` whose first label was recorded without `--origin`. */
export function judgeOriginPlaceholder(judge: string): string {
  return `Labels by the automated judge ${judge}: say which model and which revision of its prompt.`
}

/** Whether an `origin` is still the placeholder written with its file: nobody said where the judgements come from. */
export function isOriginPlaceholder(origin: string): boolean {
  return origin === ORIGIN_PLACEHOLDER || JUDGE_PLACEHOLDER.test(origin)
}

/**
 * An `origin` as printed: the text itself, or, for a placeholder nobody replaced, `not given (…)`
 * with where to give it, so that the placeholder never reads as a real origin. `dir` is the
 * fixture's directory as shown (in the records layout `file` is a document of `<dir>/records/`).
 */
export function shownOrigin(origin: string, file: string, dir: string = dirname(file)): string {
  if (origin === ORIGIN_PLACEHOLDER)
    return `not given (${file} › origin is still the placeholder: set it with \`vitest-rubric origin ${dir} --set "…"\`, saying who or what made these judgements)`
  if (JUDGE_PLACEHOLDER.test(origin))
    return `not given (${file} › origin is still the placeholder: say there which model and which revision of its prompt, or pass --origin with the next label)`
  return origin
}

/**
 * The `origin` a judge module's run records: its `description`, the module as the run named it
 * (relative to where it ran) and its version (`name@version`, or the module file's SHA-256).
 */
export function judgeModuleOrigin(description: string, module: string, version: string): string {
  return description === '' ? `judge module ${module}, ${version}` : `${description} (judge module ${module}, ${version})`
}

const JUDGE_MODULE = /(?:^|\()judge module (.+), (sha256 [0-9a-f]+|[^\s,()]+@[^\s,()]+)(?:\)|;|$)/u

/** The judge module a judge file's `origin` names (see {@link judgeModuleOrigin}); `undefined` for labels recorded otherwise. */
export function judgeModuleOf(origin: string | undefined): string | undefined {
  return origin === undefined ? undefined : JUDGE_MODULE.exec(origin)?.[1]
}
