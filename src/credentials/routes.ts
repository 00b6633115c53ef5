// POST /oauth/token (RFC 6749 §4.4, client credentials) and GET /.well-known/jwks.json.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { SCOPES } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import type { App } from '../http/app.ts';
import { answerError, toApiError } from '../http/error-handler.ts';
import { BODY_LIMIT_TEXT } from '../http/json-body.ts';
import { ApiError } from '../http/problem.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { problemResponse } from '../http/schemas.ts';
import { authenticateClient, issueToken, type TokenIssuer } from './operations.ts';

const FORM_LIMIT = 16 * 1024;

const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String({ description: 'An ES256 JWT carrying sub, scope, companies and client_id' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds the token is valid', examples: [3600] }),
    scope: Type.String({ description: 'The scopes granted, space-separated', examples: ['accounts:read'] }),
  },
  { description: 'RFC 6749 §5.1 access token response' },
);

const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
] as const;
type OAuthErrorCode = (typeof OAUTH_ERRORS)[number];

const OAuthErrorSchema = Type.Object(
  {
    error: Type.Union(OAUTH_ERRORS.map((code) => Type.Literal(code))),
    error_description: Type.Optional(Type.String()),
  },
  { description: 'RFC 6749 §5.2 error response' },
);

const JwksSchema = Type.Object(
  { keys: Type.Array(Type.Object({ kid: Type.String(), kty: Type.String() }, { additionalProperties: true })) },
  { description: 'The public keys the tokens of /oauth/token are signed with (RFC 7517)' },
);

export interface OAuthRouteDeps {
  db: Database;
  issuer: TokenIssuer;
  limiter?: RateLimiter;
}

class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  constructor(code: OAuthErrorCode, description: string) {
    super(description);
    this.code = code;
  }
}

export async function registerOAuthRoutes(app: App, { db, issuer, limiter }: OAuthRouteDeps): Promise<void> {
  const jwks = { keys: [issuer.key.publicJwk] };
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'getJwks',
        summary: 'The public keys that verify this deployment’s access tokens',
        tags: ['OAuth'],
        security: [],
        response: { 200: JwksSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return jwks;
    },
  );

  // Its own scope, so that form bodies are accepted here and nowhere else.
  await app.register(async (oauth) => {
    oauth.setErrorHandler(answerTokenRequestError);
    oauth.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    oauth.post(
      '/oauth/token',
      {
        schema: {
          operationId: 'issueToken',
          summary: 'Get an access token with the client credentials grant',
          description:
            'RFC 6749 §4.4. Form fields (application/x-www-form-urlencoded): `grant_type=client_credentials`, ' +
            'optional `scope` (space-separated; only narrows the client’s scopes), and `client_id`/`client_secret` ' +
            'unless they are sent as HTTP Basic authorization.',
          tags: ['OAuth'],
          security: [],
          response: {
            200: TokenResponseSchema,
            400: OAuthErrorSchema,
            401: OAuthErrorSchema,
            413: problemResponse('The request body is too large'),
            415: problemResponse('The body is not a form'),
            429: problemResponse('Too many failed authentications from this address'),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        await limiter?.refuseBlockedAddress(request, reply);
        try {
          const form = request.body;
          if (form instanceof Error) throw form;
          const fields = toFields(form);
          if (fields.grant_type === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
          if (fields.grant_type !== 'client_credentials') {
            throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported');
          }
          const { clientId, clientSecret } = clientCredentials(request.headers.authorization, fields);
          const client = await authenticateClient(db, clientId, clientSecret);
          if (!client) {
            await limiter?.countFailure(request);
            throw new OAuthError('invalid_client', 'The client is unknown or revoked, or the secret is wrong');
          }
          await limiter?.countRequest(request, reply, `client:${client.id}`);
          const scopes = narrowScopes(client.scopes, fields.scope);
          const token = await issueToken(issuer, client, scopes);
          return {
            access_token: token.accessToken,
            token_type: 'Bearer' as const,
            expires_in: token.expiresIn,
            scope: token.scope,
          };
        } catch (error) {
          if (!(error instanceof OAuthError)) throw error;
          const status = error.code === 'invalid_client' ? 401 : 400;
          if (status === 401) reply.header('www-authenticate', 'Basic realm="ledgerhook", charset="UTF-8"');
          return reply.status(status).send({ error: error.code, error_description: error.message });
        }
      },
    );
  });
}

/**
 * A body the parsers refused, in the token endpoint's terms: a malformed or invalid one is RFC 6749's
 * `invalid_request` (its 400 has no problem+json), and the size and type refusals name this
 * endpoint's limits. Anything else is answered as on every route.
 */
function answerTokenRequestError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(error);
  if (apiError.status === 400) {
    reply.header('cache-control', 'no-store');
    return reply.status(400).send({ error: 'invalid_request', error_description: apiError.message });
  }
  if (apiError.type === 'PAYLOAD_TOO_LARGE') {
    const detail = `The request body is too large: a form at most ${FORM_LIMIT / 1024} KiB, JSON at most ${BODY_LIMIT_TEXT}`;
    return answerError(error, request, reply, new ApiError('PAYLOAD_TOO_LARGE', detail));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const detail = 'Send the body as application/x-www-form-urlencoded (or application/json)';
    return answerError(error, request, reply, new ApiError('UNSUPPORTED_MEDIA_TYPE', detail));
  }
  return answerError(error, request, reply, apiError);
}

/** The form as a map; a parameter sent twice is an error (RFC 6749 §3.2), reported by the handler. */
function parseForm(body: string): Record<string, string> | OAuthError {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(fields, name)) return new OAuthError('invalid_request', `${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}

function toFields(body: unknown): Record<string, string | undefined> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new OAuthError('invalid_request', 'Send the parameters as a form');
  const fields: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be a string`);
    fields[name] = value;
  }
  return fields;
}

/** From HTTP Basic (RFC 6749 §2.3.1: each part form-encoded) or the form, never both. */
function clientCredentials(
  authorization: string | undefined,
  fields: Record<string, string | undefined>,
): { clientId: string; clientSecret: string } {
  if (authorization) {
    if (fields.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'Authenticate the client one way: HTTP Basic or the form, not both');
    }
    const match = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0)
      throw new OAuthError('invalid_client', 'The Authorization header must be Basic client_id:client_secret');
    try {
      const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      const clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      if (fields.client_id !== undefined && fields.client_id !== clientId) {
        throw new OAuthError('invalid_request', 'client_id in the form differs from the one in Authorization');
      }
      return { clientId, clientSecret };
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw new OAuthError('invalid_client', 'The Basic credentials are not form-encoded');
    }
  }
  if (!fields.client_id || fields.client_secret === undefined) {
    throw new OAuthError('invalid_client', 'Authenticate the client with HTTP Basic or client_id and client_secret');
  }
  return { clientId: fields.client_id, clientSecret: fields.client_secret };
}

/** The client's scopes, or the requested subset of them; asking for more is invalid_scope (RFC 6749 §3.3). */
function narrowScopes(granted: string[], requested: string | undefined): string[] {
  if (requested === undefined || requested.trim() === '') return granted;
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(', ')}`);
  // A `:write` grant includes its `:read` (docs/decisions/credentials.md), so asking for the read
  // is narrowing too.
  const covers = (scope: string) =>
    granted.includes(scope) || (scope.endsWith(':read') && granted.includes(scope.replace(/:read$/, ':write')));
  const beyond = asked.filter((s) => !covers(s));
  if (beyond.length > 0) throw new OAuthError('invalid_scope', `The client is not granted ${beyond.join(', ')}`);
  return asked;
}
