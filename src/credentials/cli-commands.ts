// What `ledgerhook clients …` and `ledgerhook api-keys …` ask and answer, as data, and how a database
// answers it. The CLI answers a request on the database itself, or has the service that holds an
// embedded DATA_DIR answer it (cli-socket.ts); either way cli.ts prints the answer, so the output is
// the same.
import Type, { type Static } from 'typebox';
import type { Database } from '../db/database.ts';
import { CredentialInputError, createApiKey, createClient, revokeApiKeyById, revokeClientById } from './operations.ts';
import { type ApiKey, type Client, listApiKeys, listClients } from './store.ts';

const exactly = { additionalProperties: false } as const;

/** Every request there is: what the service's socket takes, and nothing else. */
export const CredentialRequestSchema = Type.Union([
  Type.Object(
    {
      command: Type.Literal('clients create'),
      name: Type.String(),
      companies: Type.Array(Type.String()),
      scope: Type.String(),
    },
    exactly,
  ),
  Type.Object({ command: Type.Literal('clients list') }, exactly),
  Type.Object({ command: Type.Literal('clients revoke'), id: Type.String() }, exactly),
  Type.Object({ command: Type.Literal('api-keys create'), clientId: Type.String() }, exactly),
  Type.Object({ command: Type.Literal('api-keys revoke'), id: Type.String() }, exactly),
]);

export type CredentialRequest = Static<typeof CredentialRequestSchema>;

/** A client as `clients list` shows it: with its keys, never a secret or a hash. */
export type ListedClient = Client & { apiKeys: Omit<ApiKey, 'clientId'>[] };

/** A request's answer, under the request's command. Plain JSON, so that it crosses the socket unchanged. */
export type CredentialAnswer =
  | {
      command: 'clients create';
      created: {
        client_id: string;
        client_secret: string;
        api_key_id: string;
        api_key: string;
        companies: string[];
        scope: string;
      };
    }
  | { command: 'clients list'; clients: ListedClient[] }
  | { command: 'clients revoke'; id: string; subscriptions: number; messages: number }
  | { command: 'api-keys create'; created: { api_key_id: string; api_key: string; client_id: string } }
  | { command: 'api-keys revoke'; id: string };

/**
 * Runs `request` on `db`. What the operator got wrong (an unknown scope, a malformed company, an id
 * that names no active client or key) is a CredentialInputError; `pepper` is needed to create keys.
 */
export async function answerCredentialRequest(
  db: Database,
  pepper: Buffer | undefined,
  request: CredentialRequest,
): Promise<CredentialAnswer> {
  switch (request.command) {
    case 'clients create': {
      const { name, companies, scope } = request;
      const created = await createClient(db, needed(pepper), { name, companies, scope });
      return {
        command: request.command,
        created: {
          client_id: created.client.id,
          client_secret: created.clientSecret,
          api_key_id: created.apiKey.id,
          api_key: created.apiKeyValue,
          companies: created.client.companies,
          scope: created.client.scopes.join(' '),
        },
      };
    }
    case 'clients list': {
      const [clients, keys] = await Promise.all([listClients(db), listApiKeys(db)]);
      return {
        command: request.command,
        clients: clients.map((client) => ({
          ...client,
          apiKeys: keys.filter((k) => k.clientId === client.id).map(({ clientId: _, ...k }) => k),
        })),
      };
    }
    case 'clients revoke': {
      const revoked = await revokeClientById(db, request.id);
      if (!revoked) throw new CredentialInputError(`no active client ${request.id}`);
      return { command: request.command, id: request.id, ...revoked };
    }
    case 'api-keys create': {
      const { apiKey, apiKeyValue } = await createApiKey(db, needed(pepper), request.clientId);
      return {
        command: request.command,
        created: { api_key_id: apiKey.id, api_key: apiKeyValue, client_id: apiKey.clientId },
      };
    }
    case 'api-keys revoke': {
      if (!(await revokeApiKeyById(db, request.id))) throw new CredentialInputError(`no active API key ${request.id}`);
      return { command: request.command, id: request.id };
    }
  }
}

function needed(pepper: Buffer | undefined): Buffer {
  // The CLI refuses a create without a pepper before it asks; an embedded service always has one.
  if (!pepper) throw new Error('creating an API key needs the API key pepper');
  return pepper;
}
