// Writes the client's generated types from the OpenAPI document the service builds, in process, on
// an in-memory embedded database: `npm run generate:client` (or `node clients/typescript/scripts/generate.ts`).
// test/client/generated.test.ts runs the same steps and compares, so a stale file fails the tests.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createTokenVerifier } from '../../../src/auth/verify-token.ts';
import { openDatabase } from '../../../src/db/open-database.ts';
import { buildServer } from '../../../src/server.ts';
import { type OpenApiDocument, openApiToTypeScript } from './openapi-to-typescript.ts';

/** Where the generated module lives. */
export const GENERATED_FILE = new URL('../src/generated/openapi.ts', import.meta.url);

/** The document GET /openapi.json answers, built without listening. */
export async function serviceDocument(): Promise<OpenApiDocument> {
  const db = await openDatabase({ databaseUrl: undefined, dataDir: 'memory' });
  // No request is made: a verifier of a secret nobody holds is enough to build the routes.
  const app = await buildServer({ db, verifyToken: createTokenVerifier({ secret: randomBytes(32).toString('hex') }) });
  try {
    await app.ready();
    return app.swagger() as unknown as OpenApiDocument;
  } finally {
    await app.close();
    await db.close();
  }
}

if (import.meta.main) {
  await writeFile(GENERATED_FILE, openApiToTypeScript(await serviceDocument()));
  console.log(`wrote ${GENERATED_FILE.pathname}`);
}
