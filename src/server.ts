// Builds the HTTP application: logging, validation, errors, authentication, documentation, routes.
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { levels } from 'pino';
import { registerAccountingEntryRoutes } from './accounting-entries/routes.ts';
import { registerAccountRoutes } from './accounts/routes.ts';
import { registerChartOfAccountsRoutes } from './accounts/v1-routes.ts';
import { SCOPES } from './auth/principal.ts';
import type { TokenVerifier } from './auth/verify-token.ts';
import { registerAggregatedGroupRoutes } from './bookkeeping-categories/aggregated-routes.ts';
import { registerCategoryRoutes } from './bookkeeping-categories/category-routes.ts';
import { registerGroupRoutes } from './bookkeeping-categories/group-routes.ts';
import { registerBookkeepingPreferenceRoutes } from './bookkeeping-preferences/routes.ts';
import { loadConfig, type TrustProxy } from './config.ts';
import { registerContraAccountRoutes } from './contra-accounts/routes.ts';
import type { CredentialStatus } from './credentials/credential-status.ts';
import type { TokenIssuer } from './credentials/operations.ts';
import { registerOAuthRoutes } from './credentials/routes.ts';
import { registerDashboard } from './dashboard/routes.ts';
import type { Database } from './db/database.ts';
import { registerExportJobRoutes } from './export-jobs/routes.ts';
import type { App, RouteDeps } from './http/app.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { JSON_CONTENT_TYPE } from './http/content-types.ts';
import { decodePathColons } from './http/custom-method-colon.ts';
import { registerApiDocsPage } from './http/docs-page.ts';
import { answerClientError, answerRouterError, registerErrorHandler } from './http/error-handler.ts';
import { BODY_LIMIT, registerJsonBodyParser } from './http/json-body.ts';
import { buildSerializersOnFirstUse } from './http/lazy-compile.ts';
import { type RouterOptions, registerNotFoundHandler } from './http/not-found.ts';
import { declareReferenceMediaTypes } from './http/openapi-media-types.ts';
import { type OpenApiDocument, shareProblemSchema } from './http/openapi-problem.ts';
import { registerOptionalBodies } from './http/optional-body.ts';
import { queryEncodingError } from './http/query-encoding.ts';
import { type RateLimitSettings, registerRateLimits } from './http/rate-limit.ts';
import { registerValidators } from './http/validation.ts';
import { registerOpsRoutes } from './ops/routes.ts';
import { registerActivityRoutes } from './subscriptions/activity-routes.ts';
import { registerSubscriptionRoutes } from './subscriptions/routes.ts';
import { registerTaxCodeRoutes } from './tax-codes/routes.ts';
import { registerRequestSpans } from './telemetry/request-spans.ts';
import { VERSION } from './version.ts';
import { registerDeliveryLogRoutes } from './webhooks/delivery-log-routes.ts';
import { registerEventFeedRoutes } from './webhooks/feed-routes.ts';
import { eventTypeWebhooks } from './webhooks/openapi-webhooks.ts';
import { registerEventTypeRoutes } from './webhooks/routes.ts';

export interface ServerOptions {
  db: Database;
  verifyToken: TokenVerifier;
  /** A pino logger; without one the server logs nothing (tests). */
  logger?: FastifyBaseLogger;
  /** The deployment's base address, listed as the OpenAPI server. */
  publicBaseUrl?: string;
  /** Lifetime of an export job since its last change; default EXPORT_JOB_TTL's. */
  exportJobTtlSeconds?: number;
  /** http and private addresses allowed as webhook endpoints; default WEBHOOK_ALLOW_PRIVATE_TARGETS's (false). */
  webhookAllowPrivateTargets?: boolean;
  /** Subscriptions one client may have for one set of companies; default WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT's (250). */
  webhookMaxSubscriptionsPerTenant?: number;
  /** How long events and messages are kept; the feed answers 410 for a cursor older. Default WEBHOOK_RETENTION's (30 days). */
  webhookRetentionMs?: number;
  /** API keys are accepted with `status`; /oauth/token and the JWKS are served with `issuer`. */
  credentials?: { status: CredentialStatus; issuer?: TokenIssuer };
  /** Per-credential and failed-authentication limits; without them, none (tests). */
  rateLimits?: RateLimitSettings;
  /** Whose `X-Forwarded-For` names the client (TRUST_PROXY); default none: the socket's address is the client. */
  trustProxy?: TrustProxy;
  /** Serve the delivery dashboard at /dashboard; default DASHBOARD's (true). */
  dashboard?: boolean;
  /** A span per request (tracing runs: telemetry/tracing.ts); default none, and no hook for it. */
  tracing?: boolean;
}

// `/v1-beta/accounts/` is `/v1-beta/accounts`. The 404/405 handler's mirror of the routes reads the
// same options, so that it never finds a route Fastify did not.
const ROUTER_OPTIONS: RouterOptions = { ignoreTrailingSlash: true };
// A client may pass its own request id for tracing; anything that is not a plain token is replaced.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildServer(options: ServerOptions): Promise<App> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: ROUTER_OPTIONS,
    rewriteUrl: (request) => decodePathColons(request.url ?? '/'),
    frameworkErrors: answerRouterError,
    clientErrorHandler: answerClientError,
    // One log line per request, written when it completes (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    ajv: { customOptions: { strict: false } },
    schemaController: { compilersFactory: { buildSerializer: buildSerializersOnFirstUse } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Hooks that never wait take Fastify's callback form: no promise per request. Every answer is
  // JSON unless it says otherwise (errors, metrics, the docs' pages set their own type), with the
  // reference API's content type, which Fastify would write as `application/json; charset=utf-8`.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('content-type', JSON_CONTENT_TYPE);
    done(queryEncodingError(request.url));
  });
  if (options.tracing) registerRequestSpans(app);
  // Not registered at all above info (LOG_LEVEL=warn): then a request costs nothing here.
  const logsRequests = (levels.values[options.logger?.level ?? 'silent'] ?? Infinity) <= (levels.values.info ?? 30);
  if (logsRequests)
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
      done();
    });
  // Bodies are JSON only: anything else is 415, rather than Fastify's default text parser.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerValidators(app);
  registerErrorHandler(app);
  registerNotFoundHandler(app, ROUTER_OPTIONS);
  const markOptionalBodies = registerOptionalBodies(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ledgerhook',
        version: VERSION,
        description:
          "Accounts API and signed webhooks for accounting integrations. Errors carry a stable `type` and a `message` (the reference's ExceptionInfo) with RFC 9457 problem members, as application/json;charset=UTF-8, or as application/problem+json to a client whose Accept header names it.",
      },
      servers: options.publicBaseUrl ? [{ url: options.publicBaseUrl }] : [],
      components: {
        securitySchemes: {
          // An access token (JWT), or an API key as the bearer value.
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKeyBasic: {
            type: 'http',
            scheme: 'basic',
            description: 'An API key as the user name, with an empty password',
          },
          ...(options.credentials?.issuer && options.publicBaseUrl
            ? {
                oauth2: {
                  type: 'oauth2',
                  flows: {
                    clientCredentials: {
                      tokenUrl: `${options.publicBaseUrl}/oauth/token`,
                      scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scope])),
                    },
                  },
                },
              }
            : {}),
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyBasic: [] }],
    },
    // The published document: optional bodies marked, the problem schema shared, the webhooks listed.
    transformObject: (document) =>
      ({
        ...declareReferenceMediaTypes(
          shareProblemSchema(
            markOptionalBodies('openapiObject' in document ? document.openapiObject : {}) as OpenApiDocument,
          ),
        ),
        webhooks: eventTypeWebhooks(),
      }) as never,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await registerApiDocsPage(app);
  if (options.dashboard ?? loadConfig({}).dashboard) await registerDashboard(app);

  const limiter = await registerRateLimits(app, options.rateLimits);
  registerAuthentication(app, options.verifyToken, {
    apiKeys: options.credentials?.status.authenticateApiKey,
    limiter,
  });
  const defaults = loadConfig({});
  const deps: RouteDeps = {
    db: options.db,
    config: {
      exportJobTtlSeconds: options.exportJobTtlSeconds ?? defaults.exportJobTtlSeconds,
      webhookAllowPrivateTargets: options.webhookAllowPrivateTargets ?? defaults.webhookAllowPrivateTargets,
      webhookMaxSubscriptionsPerTenant:
        options.webhookMaxSubscriptionsPerTenant ?? defaults.webhookMaxSubscriptionsPerTenant,
      webhookRetentionMs: options.webhookRetentionMs ?? defaults.webhookRetentionMs,
    },
  };
  registerOpsRoutes(app, deps, limiter.redis);
  registerAccountRoutes(app, deps);
  registerChartOfAccountsRoutes(app, deps);
  registerTaxCodeRoutes(app, deps);
  registerGroupRoutes(app, deps);
  registerCategoryRoutes(app, deps);
  registerAggregatedGroupRoutes(app, deps);
  registerAccountingEntryRoutes(app, deps);
  registerContraAccountRoutes(app, deps);
  registerBookkeepingPreferenceRoutes(app, deps);
  registerExportJobRoutes(app, deps);
  registerEventTypeRoutes(app, deps);
  registerSubscriptionRoutes(app, deps);
  registerActivityRoutes(app, deps);
  registerDeliveryLogRoutes(app, deps);
  registerEventFeedRoutes(app, deps);
  const issuer = options.credentials?.issuer;
  if (issuer) await registerOAuthRoutes(app, { db: options.db, issuer, limiter });
  return app;
}

/** A hop count as the function Fastify makes of one at run time (its option's type leaves numbers out). */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
