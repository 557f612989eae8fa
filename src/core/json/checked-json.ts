import type { z } from 'zod'
import type { RubricError } from '../common/errors.js'
import { parseJsonText } from './read.js'
import { safeParseReporting, schemaError, type SchemaErrorContext } from './schema-error.js'

/**
 * A small JSON file of the package's own (a team's token hashes, its reservations) parsed and
 * checked against `schema`: text that is not JSON is refused saying `notJson`, a value the schema
 * refuses with its issues at their JSON paths, both under the context's code and fix.
 */
export function checkedJsonFile<T extends z.ZodType, E extends RubricError>(
  file: { readonly display: string; readonly bytes: Uint8Array },
  schema: T,
  context: Pick<SchemaErrorContext<E>, 'ErrorClass' | 'code' | 'hint'> & { readonly notJson: string },
): z.infer<T> {
  const { ErrorClass, code, hint } = context
  let value: unknown
  try {
    value = parseJsonText(file).value
  } catch {
    throw new ErrorClass({ code, file: file.display, summary: context.notJson, hint })
  }
  const parsed = safeParseReporting(schema, value)
  if (!parsed.success) throw schemaError({ ErrorClass, code, file: file.display, basePath: [], hint }, parsed.error.issues)
  return parsed.data as z.infer<T> // Cast: a successful parse of `schema` gives its output; TypeScript cannot tie the two for a generic T.
}
