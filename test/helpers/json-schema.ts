import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import type { JsonSchema } from '../../src/core/engine/json-schemas.js'

/** What a JSON Schema validator reports about one value: nothing when the value is valid. */
export type Violation = Pick<ErrorObject, 'instancePath' | 'keyword' | 'params'>

/**
 * Compiles a schema as an editor's validator would read it, with Ajv for draft 2020-12 in strict
 * mode (so an unknown keyword or a malformed schema fails the compile), reporting every error.
 */
export function validatorFor(schema: JsonSchema): (value: unknown) => Violation[] {
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema)
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params })))
}

/**
 * The schema of that file name among generated schemas (`fixtureJsonSchemas()`): a name no kind
 * defines fails the test that asks for it, rather than passing `undefined` on.
 */
export function schemaNamed(schemas: Readonly<Record<string, JsonSchema>>, name: string): JsonSchema {
  const schema = schemas[name]
  if (schema === undefined) throw new Error(`no JSON Schema named ${name}; the kinds define ${Object.keys(schemas).join(', ')}`)
  return schema
}
