// How a schema becomes shared: it gets an $id, is registered once with the app (app.addSchema), and
// routes point at it with a reference, so the OpenAPI document names it under components.schemas.
import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

export type Shared<T extends TSchema> = T & { readonly $id: string };

export const shared = <T extends TSchema>(id: string, schema: T): Shared<T> => ({ ...schema, $id: id });

/** A reference to a shared schema that keeps its static type for the handlers. */
export const ref = <T extends TSchema>(schema: Shared<T>, options: SchemaOptions = {}): TUnsafe<Static<T>> =>
  Type.Unsafe<Static<T>>(Type.Ref(schema.$id, options));

/** A string enum as JSON Schema `enum` (not TypeBox's anyOf of consts), which generators map to a union. */
export const StringEnum = <T extends string>(values: readonly T[], options: SchemaOptions = {}): TUnsafe<T> =>
  Type.Unsafe<T>({ ...options, type: 'string', enum: [...values] });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
