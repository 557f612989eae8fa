import type { InteractiveAdjudication, InteractiveReview, KindTerminal } from '../contract/terminal.js'

/**
 * A kind's terminal part whose prompts are imported when a terminal first asks: the prompt library
 * stays out of what the engine, the plugin and the public entries load. Without `adjudicate`, the
 * kind is adjudicated from options or a file.
 */
export function lazyTerminal<R, C>(
  review: () => Promise<InteractiveReview<R, C>>,
  adjudicate?: () => Promise<InteractiveAdjudication<R, C>>,
): KindTerminal<R, C> {
  const part: KindTerminal<R, C> = { review: async (target, terminal, record) => (await review())(target, terminal, record) }
  if (adjudicate === undefined) return part
  return { ...part, adjudicate: async (view, terminal, adopt) => (await adjudicate())(view, terminal, adopt) }
}
