import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { DECIMAL_INTEGER } from '../text-formats.ts';
import { validatorOnFirstUse } from './lazy-compile.ts';
import { closeObjectSchemas } from './unknown-properties.ts';

// Bodies are validated as sent (a string "true" is not a boolean); query strings and path
// parameters arrive as text, so they are converted to the declared types first.
const common: Options = { allErrors: true, useDefaults: true, strict: false, unicodeRegExp: true };

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats.default(ajv);
  return ajv;
}

// `verbose` puts the schema of the object beside an unknown property's error, whose other
// properties the error handler suggests (unknown-properties.ts).
const bodyAjv = makeAjv({ coerceTypes: false, verbose: true });

/**
 * A validator of a JSON body (or a part of one) as sent: nothing coerced, every error listed, and no
 * property its schema does not declare (closeObjectSchemas).
 */
export function compileBodyValidator<T = unknown>(schema: object): ValidateFunction<T> {
  return bodyAjv.compile<T>(closeObjectSchemas(schema));
}

export function registerValidators(app: FastifyInstance): void {
  // Closed in the route's schema, not only in its validator, so that the OpenAPI document says so.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body) route.schema.body = closeObjectSchemas(route.schema.body);
  });
  const textAjv = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    validatorOnFirstUse(() => {
      if (httpPart === 'body') return compileBodyValidator(schema as object);
      const validate = textAjv.compile(schema as object);
      return httpPart === 'querystring' ? withDecimalIntegers(validate, integerProperties(schema)) : validate;
    }),
  );
}

// Ajv turns any text that JavaScript's `==` equates with a number into that number: `0x10` is 16,
// `1e2` is 100, ` 5` and `+5` are 5. An integer in a query string is written in decimal digits.

/** `validate`, which also refuses the named query parameters when they are not decimal digits. */
function withDecimalIntegers(validate: ValidateFunction, names: string[]): ValidateFunction {
  if (names.length === 0) return validate;
  const strict = (data: Record<string, unknown>) => {
    const loose = names.filter((name) => typeof data[name] === 'string' && !DECIMAL_INTEGER.test(data[name]));
    const valid = validate(data);
    const errors = validate.errors ?? [];
    // A value Ajv refused too (`abc`) is reported once, in Ajv's words.
    const reported = new Set(errors.map((error) => error.instancePath));
    const added = loose.filter((name) => !reported.has(`/${name}`)).map(looseIntegerError);
    strict.errors = [...errors, ...added];
    return valid && added.length === 0;
  };
  strict.errors = null as ErrorObject[] | null;
  return strict as unknown as ValidateFunction;
}

function looseIntegerError(name: string): ErrorObject {
  return {
    instancePath: `/${name}`,
    schemaPath: `#/properties/${name}/type`,
    keyword: 'type',
    params: { type: 'integer' },
    message: 'must be an integer in decimal digits',
  };
}

/** The properties of a query schema declared as integers. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}
