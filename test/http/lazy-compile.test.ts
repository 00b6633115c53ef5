// Validators and serializers compile when first used (src/http/lazy-compile.ts), and then behave
// exactly as the compiled ones: same answers, same errors, Ajv's parent argument passed through.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { buildSerializersOnFirstUse, validatorOnFirstUse } from '../../src/http/lazy-compile.ts';

const schema = { type: 'object', properties: { n: { type: 'integer', default: 7 } }, required: ['n'] };

describe('schemas compiled on first use', () => {
  it('a validator compiles on its first call, once, and shows each call’s errors', () => {
    const ajv = new Ajv({ allErrors: true, useDefaults: true });
    let compiles = 0;
    const validate = validatorOnFirstUse(() => {
      compiles++;
      return ajv.compile(schema);
    });
    assert.equal(compiles, 0, 'nothing is compiled before the first call');
    assert.equal(validate({ n: 'x' }), false);
    assert.equal(validate.errors?.[0]?.instancePath, '/n');
    assert.equal(validate({ n: 3 }), true);
    assert.equal(validate.errors, null, 'a valid call clears the errors');
    assert.equal(compiles, 1);
  });

  it('passes the parent through, so that Ajv can replace a coerced root value', () => {
    const ajv = new Ajv({ coerceTypes: true });
    const validate = validatorOnFirstUse(() => ajv.compile({ type: 'integer' }));
    const request = { query: '42' as unknown };
    assert.equal(
      validate(request.query, {
        instancePath: '',
        parentData: request,
        parentDataProperty: 'query',
        rootData: request,
        dynamicAnchors: {},
      }),
      true,
    );
    assert.equal(request.query, 42);
  });

  it('a serializer compiles on its first call and writes what fast-json-stringify writes', () => {
    const compile = buildSerializersOnFirstUse()({ schema, method: 'GET', url: '/', httpStatus: '200' });
    assert.equal(compile({ n: 5, extra: true }), '{"n":5}');
  });
});
