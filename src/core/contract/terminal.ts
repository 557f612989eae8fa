// What a kind gives a terminal: its interactive review and adjudication, which the CLI asks when no
// judgement is given by options or a file. Types only, importing no engine module: what a prompt is
// shown and what it gets back are said here as far as a prompt reads them, and the engine's review
// target, adjudication view and results are those.
import type { Readable, Writable } from 'node:stream'
import type { KindContext } from './context.js'

/** The terminal a prompt reads keys from and draws on. */
export interface Terminal {
  readonly input: Readable
  readonly output: Writable
}

/** What a prompt is shown of the case under review: the engine's review target. */
export interface TerminalTarget<R, C> {
  readonly context: KindContext<R>
  /** The case as its kind parsed it. */
  readonly parsedCase: C
  /** The review slot: `review`, or a scored case's system. */
  readonly slot: string
  /** The review the new one would replace, offered as the starting values. */
  readonly existing: { readonly value: unknown } | undefined
  /** The file the review goes into, as shown. */
  readonly file: string
  readonly fixture: { readonly displayDir: string }
  /** Of a stale review being replaced: the items a reviewer may carry over once confirmed, and what changed. */
  readonly carried?: { readonly items: readonly string[]; readonly changes: readonly string[] } | undefined
}

/** What a prompt reads of a review recorded (or tried in a dry run): the decision it gives the case and the files written. */
export interface RecordedDraft {
  readonly decision: string
  readonly written: readonly string[]
}

/** Records a draft (a dry run first, to show the decision), as the command would from options. */
export type RecordDraft<T extends RecordedDraft = RecordedDraft> = (draft: unknown, dryRun: boolean) => Promise<T>

/** An interactive review of one case: the recorded review, or `cancelled` with nothing written. */
export type InteractiveReview<R, C> = <T extends RecordedDraft>(
  target: TerminalTarget<R, C>,
  terminal: Terminal,
  record: RecordDraft<T>,
) => Promise<T | 'cancelled'>

/** What an adjudicator chose: a reviewer's whole review, an item from a reviewer each, judgements written. */
export interface AdjudicationChoice {
  readonly take?: string
  readonly picks?: Readonly<Record<string, string>>
  readonly written?: Readonly<Record<string, unknown>>
}

/** What a prompt reads of an adoption (or its dry run): the case's decision once adopted, and the files written. */
export interface AdoptedChoice {
  readonly adopted: readonly { readonly decision: string }[]
  readonly written: readonly string[]
}

/** Adopts a choice (a dry run first, to show the decision). */
export type AdoptChoice<T extends AdoptedChoice = AdoptedChoice> = (choice: AdjudicationChoice, preview: boolean) => Promise<T>

/** What an adjudicator is shown of a case: the engine's adjudication view. */
export interface TerminalAdjudicationView<R, C> {
  readonly target: TerminalTarget<R, C>
  /** Each reviewer's independent review: what it says of each item, as shown. */
  readonly views: readonly { readonly reviewer: string; readonly items: Readonly<Record<string, { readonly shown: string }>> }[]
  /** Each reviewer's review as a draft of the kind. */
  readonly drafts: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** The automated judges' labels of the case: predictions, never adopted; `draft` is `undefined` when a label is not current. */
  readonly predictions: readonly {
    readonly judge: string
    readonly origin: string
    readonly draft: Readonly<Record<string, unknown>> | undefined
    readonly refused?: string | undefined
  }[]
}

/** An interactive adjudication of one case: what was adopted, or `cancelled` with nothing written. */
export type InteractiveAdjudication<R, C> = <T extends AdoptedChoice>(
  view: TerminalAdjudicationView<R, C>,
  terminal: Terminal,
  adopt: AdoptChoice<T>,
) => Promise<T | 'cancelled'>

/**
 * How a kind is reviewed and adjudicated on a terminal. A kind loads its prompts in these methods,
 * when a terminal asks (`import()`), so that their prompt library stays out of what the engine, the
 * plugin and the public entries load. A kind without one is reviewed from options or a file.
 */
export interface KindTerminal<R, C> {
  /** Asks for a review of the case, shows the decision it gives, and records it once the reviewer confirms. */
  review<T extends RecordedDraft>(target: TerminalTarget<R, C>, terminal: Terminal, record: RecordDraft<T>): Promise<T | 'cancelled'>
  /** Asks what to adopt of a case's independent reviews; a kind without it is adjudicated with `--take`, `--pick` or a file. */
  adjudicate?<T extends AdoptedChoice>(view: TerminalAdjudicationView<R, C>, terminal: Terminal, adopt: AdoptChoice<T>): Promise<T | 'cancelled'>
}
