import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// Bodies are validated as sent (a string "true" is not a boolean); query strings and path
// parameters arrive as text, so they are converted to the declared types first.
const common: Options = { allErrors: true, useDefaults: true, strict: false, unicodeRegExp: true };

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function registerValidators(app: FastifyInstance): void {
  const bodyAjv = makeAjv({ coerceTypes: false });
  const textAjv = makeAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );
}
