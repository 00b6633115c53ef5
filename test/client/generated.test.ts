// The client's types are what the service publishes: regenerated from the OpenAPI document the
// service builds, they equal the committed file (run `npm run generate:client` when this fails), and
// the client carries the service's version.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { GENERATED_FILE, serviceDocument } from '../../clients/typescript/scripts/generate.ts';
import { openApiToTypeScript } from '../../clients/typescript/scripts/openapi-to-typescript.ts';
import { SERVICE_VERSION } from '../../clients/typescript/src/generated/openapi.ts';
import { VERSION } from '../../src/version.ts';

const packageVersion = async (url: URL) => JSON.parse(await readFile(url, 'utf8')).version as string;

describe('the generated client types', { timeout: 60_000 }, () => {
  it('equal what the generator makes of the service document', async () => {
    const generated = openApiToTypeScript(await serviceDocument());
    const committed = await readFile(GENERATED_FILE, 'utf8');
    assert.ok(
      generated === committed,
      'clients/typescript/src/generated/openapi.ts is stale: run `npm run generate:client` and commit it',
    );
  });

  it('and the client package have the version of the service', async () => {
    assert.equal(SERVICE_VERSION, VERSION);
    assert.equal(await packageVersion(new URL('../../clients/typescript/package.json', import.meta.url)), VERSION);
  });

  it('refuse a schema keyword they do not know, rather than type it loosely', () => {
    const document = {
      info: { version: '0' },
      paths: {
        '/x': {
          get: {
            operationId: 'x',
            responses: { 200: { content: { 'application/json': { schema: { type: 'object', if: {} } } } } },
          },
        },
      },
    };
    assert.throws(() => openApiToTypeScript(document), /unhandled JSON Schema keyword if/);
  });
});
