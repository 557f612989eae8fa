import { z } from 'zod'

const INSIDE = 'a glob relative to the project root that stays inside it (no ".." segment): a fixture outside the project is never read'

/**
 * A glob of fixture directories, relative to the project root. One with a `..` segment reaches
 * outside the root, where every fixture would be refused as lying outside the project: it is
 * refused at once, with the reason, rather than fixture by fixture.
 */
const glob = z
  .string()
  .min(1)
  .refine((value) => !value.split(/[/\\]/).includes('..'), { error: INSIDE })

/** A glob, or a list of globs, as the options take them (`include`, `exclude`, a gate's `fixtures`). */
export const globs = z.union([glob, z.array(glob)], { error: 'a glob, or a list of globs' })
