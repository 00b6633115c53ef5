// The authenticated get-by-id with our own credentials: a JWT from /oauth/token (ES256, the client's
// status checked per request through the credential cache) and an API key (HMAC-SHA256 lookup),
// beside the HS256 get-by-id of scenarios.ts. The client is registered with the CLI before the
// service starts (a PGlite DATA_DIR admits one process), as an operator would.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { promisify } from 'node:util';
import { getByIdRequests, type Scenario } from './scenarios.ts';

const MAIN = new URL('../src/main.ts', import.meta.url).pathname;
const run = promisify(execFile);

export interface AuthSetup {
  /** Added to the service's environment: the signing key, and limits far above what the bench sends. */
  env: Record<string, string>;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

/** Registers a client of `companyId` on the database `databaseEnv` names. */
export async function prepareAuth(databaseEnv: Record<string, string>, companyId: string): Promise<AuthSetup> {
  const env = {
    ...databaseEnv,
    OAUTH_SIGNING_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
    // The limiter stays in the path (its cost is measured) but never refuses.
    RATE_LIMIT_MAX: String(2 ** 31),
  };
  const { stdout } = await run(
    process.execPath,
    [MAIN, 'clients', 'create', '--name', 'bench', '--company', companyId, '--scope', 'accounts:read', '--json'],
    { env: { ...process.env, ...env } },
  );
  const printed = JSON.parse(stdout) as { client_id: string; client_secret: string; api_key: string };
  return { env, clientId: printed.client_id, clientSecret: printed.client_secret, apiKey: printed.api_key };
}

/** get-by-id with a token from the service's /oauth/token, and with the API key. */
export async function buildAuthScenarios(url: string, auth: AuthSetup, sampleIds: string[]): Promise<Scenario[]> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: auth.clientId,
      client_secret: auth.clientSecret,
    }).toString(),
  });
  if (!response.ok) throw new Error(`/oauth/token answered ${response.status}: ${await response.text()}`);
  const { access_token: token } = (await response.json()) as { access_token: string };
  const getById = (name: string, authorization: string): Scenario => ({
    name,
    requests: getByIdRequests(sampleIds, authorization),
  });
  return [
    getById('get-by-id, JWT from /oauth/token', `Bearer ${token}`),
    getById('get-by-id, API key', `Bearer ${auth.apiKey}`),
  ];
}
