import type { FastifyError, FastifyRequest } from 'fastify';
import type { App, RouteDeps } from '../http/app.ts';
import { answerWithoutBody } from '../http/content-types.ts';
import { schemaValidationError, toApiError } from '../http/error-handler.ts';
import { parsePageRequest, splitCommaListsOf } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import type { FieldError } from '../http/problem.ts';
import { errorResponses, NoFieldsBody } from '../http/schemas.ts';
import * as operations from './operations.ts';
import { securityOf } from './rights.ts';
import {
  type Subscription,
  SubscriptionEnvelope,
  SubscriptionIdParams,
  SubscriptionListQuery,
  SubscriptionPageSchema,
  SubscriptionRequestSchema,
  SubscriptionSecretEnvelope,
} from './schemas.ts';
import { SUBSCRIPTION_SORT_COLUMNS } from './store.ts';

const tags = ['Webhook subscriptions'];

// Every route needs a valid token; the scopes it needs are those of the subscription's event types,
// which the operation checks once it has found the subscription (src/subscriptions/rights.ts). A
// subscription belongs to the token's client (else its subject) and is reached by its tokens that
// list all its companies.
const config = { authenticated: true } as const;

/** The interface puts endpointAuth and customHeaders beside data; the reference API inside it. */
const envelope = (subscription: Subscription) => ({
  data: subscription,
  endpointAuth: subscription.endpointAuth,
  customHeaders: subscription.customHeaders,
});

/**
 * Throws 400 when the schema refused the request (routes with `attachValidation`), listing the
 * request rules' broken fields beside the schema's: without this, a body with both kinds would be
 * told of the schema's first and of the others only once those were fixed.
 */
function refuseInvalidRequest(request: FastifyRequest, rules: operations.SubscriptionSettings): void {
  const refused = request.validationError as FastifyError | undefined;
  if (!refused) return;
  if (!refused.validation) throw toApiError(refused);
  const fromSchema = (toApiError(refused).extensions.errors ?? []) as FieldError[];
  const reported = new Set(fromSchema.map((error) => error.path));
  const fromRules = operations.subscriptionRequestErrors(request.body, rules).filter((e) => !reported.has(e.path));
  throw schemaValidationError(refused.validation, refused.validationContext, fromRules);
}

/** `event_types` is a list like the paging lists: `event_types=a,b` or repeated. */
const splitListParameters = splitCommaListsOf(['event_types', 'sorting_keys', 'sorting_order']);

export function registerSubscriptionRoutes(app: App, { db, config: settings }: RouteDeps): void {
  const rules = {
    allowPrivateTargets: settings.webhookAllowPrivateTargets,
    maxSubscriptionsPerTenant: settings.webhookMaxSubscriptionsPerTenant,
  };
  const requestRules =
    'status ACTIVE (default) or INACTIVE; eventTypes known (400) and each needing scopes the token holds (403 FORBIDDEN with missingScopes); endpointUrl https, at most 2048 characters, not a private address; endpointAuth NONE (default) or BASIC with credentials; customHeaders as described on the field.';

  app.post(
    '/v1/subscriptions',
    {
      config,
      attachValidation: true,
      schema: {
        operationId: 'createSubscription',
        security: securityOf('manage'),
        summary: 'Create a subscription',
        description: `Subscribes an endpoint to event types of the companies the token lists. ${requestRules} Every subscription gets a signing secret (GET …/secret). Answers 200, as the reference API. A client has at most WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT subscriptions (250 by default) for one set of companies: one more answers 409 SUBSCRIPTION_LIMIT_REACHED.`,
        tags,
        body: SubscriptionRequestSchema,
        response: { 200: { ...SubscriptionEnvelope, description: 'Subscription created' }, ...errorResponses(409) },
      },
    },
    async (request) => {
      refuseInvalidRequest(request, rules);
      return envelope(await operations.createSubscription(db, request.principal, request.body, rules));
    },
  );

  app.get(
    '/v1/subscriptions',
    {
      config,
      preValidation: splitListParameters,
      schema: {
        operationId: 'getSubscriptions',
        security: securityOf('read'),
        summary: 'List subscriptions',
        description:
          "The caller's subscriptions (its client_id's, else its subject's) whose companies are all among the token's, in `status` and to any of `event_types`. Sorted by createdAt unless sorting_keys says otherwise; id breaks ties.",
        tags,
        querystring: SubscriptionListQuery,
        response: { 200: SubscriptionPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toSubscriptionFilters(request.query);
      const page = parsePageRequest(request, {
        resource: 'subscriptions',
        filters,
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: SUBSCRIPTION_SORT_COLUMNS,
      });
      const result = await operations.listSubscriptions(db, request.principal, filters, page);
      return sendPage(reply, result, page);
    },
  );

  app.get(
    '/v1/subscriptions/:id',
    {
      config,
      schema: {
        operationId: 'getSubscriptionById',
        security: securityOf('read'),
        summary: 'Get a subscription',
        description:
          "404 SUBSCRIPTION_NOT_FOUND when it does not exist, is another client's, or delivers for a company the token does not list.",
        tags,
        params: SubscriptionIdParams,
        response: { 200: SubscriptionEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => envelope(await operations.getSubscription(db, request.principal, request.params.id)),
  );

  app.put(
    '/v1/subscriptions/:id',
    {
      config,
      attachValidation: true,
      schema: {
        operationId: 'updateSubscription',
        security: securityOf('manage'),
        summary: 'Update a subscription',
        description: `Replaces every field: an omitted optional field takes its default, and BASIC credentials must be sent again. ${requestRules} The companies stay those of the creating token. A subscription the service stopped (statusReason ENDPOINT_FAILING) is enabled again by such a PUT with status ACTIVE and every other field as it is to stay; POST …:recover then sends what failed meanwhile.`,
        tags,
        params: SubscriptionIdParams,
        body: SubscriptionRequestSchema,
        response: { 200: { ...SubscriptionEnvelope, description: 'Subscription updated' }, ...errorResponses(404) },
      },
    },
    async (request) => {
      refuseInvalidRequest(request, rules);
      return envelope(
        await operations.updateSubscription(db, request.principal, request.params.id, request.body, rules),
      );
    },
  );

  app.delete(
    '/v1/subscriptions/:id',
    {
      config,
      schema: {
        operationId: 'deleteSubscription',
        security: securityOf('manage'),
        summary: 'Delete a subscription',
        description: 'Its pending deliveries are cancelled: nothing more is sent to the endpoint.',
        tags,
        params: SubscriptionIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await operations.deleteSubscription(db, request.principal, request.params.id);
      return answerWithoutBody(reply, 204);
    },
  );

  app.get(
    '/v1/subscriptions/:id/secret',
    {
      config,
      schema: {
        operationId: 'getSubscriptionSecret',
        security: securityOf('manage'),
        summary: 'Get the signing secret of a subscription',
        description:
          'The current secret, to verify webhook-signature (Standard Webhooks). After a rotation the previous one also signs for 24 hours.',
        tags,
        params: SubscriptionIdParams,
        response: { 200: SubscriptionSecretEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: { secretKey: await operations.getSubscriptionSecret(db, request.principal, request.params.id) },
    }),
  );

  app.post(
    '/v1/subscriptions/:id/secret::rotate',
    {
      config: { ...config, optionalBody: true },
      schema: {
        operationId: 'rotateSubscriptionSecret',
        security: securityOf('manage'),
        summary: 'Rotate the signing secret of a subscription',
        description:
          'Makes a new current secret and answers it. The replaced secret keeps signing beside it for 24 hours, so receivers can switch without missing a notification; at most four replaced secrets sign at once.',
        tags,
        params: SubscriptionIdParams,
        body: NoFieldsBody,
        response: { 200: { ...SubscriptionSecretEnvelope, description: 'The new secret' }, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: {
        secretKey: await operations.rotateSubscriptionSecret(db, request.principal, request.params.id),
      },
    }),
  );
}
