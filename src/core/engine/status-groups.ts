import type { SomeKindDefinition, StatusGroup } from '../contract/kind.js'

// The groups `status` sorts cases into: each kind's binding targets and pending groups, and these.

/** The groups every kind has beside its binding targets and its pending groups. */
export const COMMON_GROUPS = {
  'new-review': {
    title: 'new review, not bound yet',
    action: 'check it, then `vitest-rubric bind {dir} --case <id>` records the hashes of the files as they are now',
  },
  unacknowledged: { title: 'edited review not acknowledged', action: 'check the edit, then acknowledge it with `vitest-rubric bind {dir} --case <id>`' },
  withdrawn: {
    title: 'review withdrawn, still recorded',
    action: 'restore the review, or acknowledge its withdrawal with `vitest-rubric bind {dir} --case <id>`',
  },
  refused: { title: 'refused', action: 'fix what the message names (`vitest-rubric evaluate {dir}` prints it in full)' },
  disagreement: {
    title: 'reviewers disagree',
    action:
      'adjudicate: `vitest-rubric adjudicate {dir} --case <id> --adjudicator <name>` shows the judgements side by side (the case stays pending until then)',
  },
  'not-adopted': { title: 'reviewers agree, not adopted', action: 'adopt the reviews: `vitest-rubric adjudicate {dir} --consensus`' },
  'one-review': {
    title: 'one review, not adopted',
    action:
      'adopt it with `vitest-rubric adjudicate {dir} --case <id> --take <reviewer>`, or add a second independent review (`vitest-rubric review {dir} --case <id> --reviewer <name>`): `--consensus` adopts only two or more reviews that agree',
  },
  'too-few-reviews': { title: 'fewer reviews than required', action: 'add independent reviews: `vitest-rubric review {dir} --case <id> --reviewer <name>`' },
  'stale-adoption': {
    title: 'adoption of stale reviews',
    action:
      'the adoption stands for reviews of older files: once the reviews are current, adopt them again with `vitest-rubric adjudicate {dir} --consensus` or `--case <id>`; if every judgement still holds, `vitest-rubric bind {dir} --case <id>` keeps the adoption',
  },
  'stale-judge': {
    title: "stale judge's label",
    action:
      "judge again what is stale: `vitest-rubric judge {dir} --judge <name> --run <module>` calls the judge only for the labels that are not current (after a rubric revision, only for the criteria it changed), or record labels made elsewhere with `vitest-rubric review {dir} --judge <name> --replace --from <labels.jsonl>` (a judge's label decides nothing)",
  },
  forked: {
    title: 'records revised apart',
    action:
      'keep one revision with `vitest-rubric resolve {dir} <id> --keep <save>` (the note below names the saves); no review of the case is written until then',
  },
  current: { title: 'bound and current', action: 'nothing to do' },
} as const satisfies Record<string, StatusGroup>

/** One group of `status`: its key, how it reads, and whether a case in it makes `status` fail. */
export interface StatusGroupEntry extends StatusGroup {
  readonly key: string
  /** A case in this group is refused until someone acts: `status` exits 1. */
  readonly blocking: boolean
}

/** The groups of a kind, in order: stale bindings, unbound reviews, refusals, pending work, current. */
export function statusGroups(definition: SomeKindDefinition): StatusGroupEntry[] {
  const stale = Object.entries(definition.targets).map(([target, group]) => ({
    key: `stale-${target}`,
    title: group.title,
    action: `${group.action}, then \`vitest-rubric bind {dir} --case <id>\``,
    blocking: true,
  }))
  const blocking = (key: keyof typeof COMMON_GROUPS) => ({ key, ...COMMON_GROUPS[key], blocking: key !== 'current' })
  return [
    ...stale,
    blocking('new-review'),
    blocking('unacknowledged'),
    blocking('withdrawn'),
    blocking('stale-adoption'),
    blocking('refused'),
    blocking('forked'),
    ...(['disagreement', 'not-adopted', 'one-review', 'too-few-reviews', 'stale-judge'] as const).map((key) => ({
      key,
      ...COMMON_GROUPS[key],
      blocking: false,
    })),
    ...Object.entries(definition.present.pendingGroups).map(([key, group]) => ({ key, ...group, blocking: false })),
    blocking('current'),
  ]
}
