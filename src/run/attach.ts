import type { Reporter } from 'vitest/node'
import type { RubricReporterOptions } from './options.js'
import type { ProjectContext } from './project.js'

// The plugin hands each project's context to the run's reporters through this map, not through a
// public member: the context is the run's internal state, never part of a reporter's public type.
const attached = new WeakMap<Reporter, ProjectContext[]>()

/** Hands a project's context to one of the run's reporters (the plugin does, once per project). */
export function attachProject(reporter: Reporter, context: ProjectContext): void {
  const projects = attached.get(reporter)
  if (projects === undefined) attached.set(reporter, [context])
  else projects.push(context)
}

/** The project contexts handed to a reporter, in the order the plugin attached them; none when it runs without the plugin. */
export function attachedProjects(reporter: Reporter): readonly ProjectContext[] {
  return attached.get(reporter) ?? []
}

/**
 * How the plugin makes its printing reporter when the config lists none. The entry that joins the
 * plugin to the reporter passes the reporter's class, so the plugin's modules never import the
 * reporter's (nor the reverse): the run's state both read lives here in run/, below both.
 */
export type PrinterClass = new (options?: RubricReporterOptions) => Reporter
