import type { Reporter } from 'vitest/node'
import type { RubricReporterOptions } from './options.js'
import type { ProjectContext } from './project.js'

/** The reporter that prints the rubric block: the plugin hands it each project's context. */
export interface ProjectPrinter extends Reporter {
  attach(project: ProjectContext): void
}

/**
 * How the plugin makes its printing reporter when the config lists none. The entry that joins the
 * plugin to the reporter passes the reporter's class, so the plugin's modules never import the
 * reporter's (nor the reverse): the run's state both read lives here, below both.
 */
export type PrinterClass = new (options?: RubricReporterOptions) => ProjectPrinter
