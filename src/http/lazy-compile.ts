// Fastify compiles every route's validators and response serializers while the app starts: Ajv and
// fast-json-stringify generate code for each schema, about 0.9 s of CPU for all of ledgerhook's
// routes, most of them routes a given process never answers (a CLI command's server, a test file's
// app). Each is compiled instead when its route first needs it, and kept
// (docs/decisions/stack.md, "Schemas compile on first use").

import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';

/**
 * A validator that compiles on its first call. It passes Fastify's second argument through (the
 * parent whose part Ajv may replace when it coerces or fills defaults) and shows the compiled one's
 * `errors` after each call, where Fastify reads them.
 */
export function validatorOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    compiled ??= compile();
    const valid = compiled.schemaEnv ? compiled(data, context) : compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  // Fastify passes the parent only to a function with a schemaEnv, as Ajv's compiled ones have.
  validate.schemaEnv = {} as ValidateFunction['schemaEnv'];
  return validate;
}

/** A serializer that compiles on its first call. */
export function serializerOnFirstUse(compile: () => (data: unknown) => string): (data: unknown) => string {
  let compiled: ((data: unknown) => string) | undefined;
  return (data) => {
    compiled ??= compile();
    return compiled(data);
  };
}

/** Fastify's own serializer builder (fast-json-stringify), whose serializers compile on first use. */
export const buildSerializersOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => serializerOnFirstUse(() => compile(route));
};
