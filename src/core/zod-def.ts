import type { z } from 'zod'

/**
 * The definition of a zod schema, with the fields of the kinds the compiled guard and writer read
 * (zod's public `_zod.def`, typed per kind in zod; one loose type here).
 */
export type ZodDef = z.core.$ZodTypeDef & {
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>
  readonly catchall?: z.core.$ZodType
  readonly innerType?: z.core.$ZodType
  readonly keyType?: z.core.$ZodType
  readonly valueType?: z.core.$ZodType
  readonly element?: z.core.$ZodType
  readonly values?: readonly unknown[]
  readonly entries?: Readonly<Record<string, unknown>>
  readonly checks?: readonly z.core.$ZodCheck[]
  readonly check?: string
  readonly format?: string
}

/** The definition of a schema. */
export function defOf(schema: z.core.$ZodType): ZodDef {
  return schema._zod.def as ZodDef
}
