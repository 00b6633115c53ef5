// The delivery log (docs/decisions/webhook-delivery.md): what was sent to a subscription, every
// attempt, and resend.
import Type from 'typebox';
import type { App, RouteDeps } from '../http/app.ts';
import { pageQueryProperties, parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { PageInfoSchema, sendPage } from '../http/pagination/page-response.ts';
import { errorResponses, NoFieldsBody, Nullable, Timestamp, TimestampInput, Uuid } from '../http/schemas.ts';
import { securityOf } from '../subscriptions/rights.ts';
import * as operations from './delivery-log.ts';
import {
  ATTEMPT_SORT_COLUMNS,
  ATTEMPTS_PER_PAGE,
  MESSAGE_SORT_COLUMNS,
  MESSAGE_STATUSES,
  type MessageStatus,
} from './delivery-log-store.ts';
import { eventPayloadSchema } from './event-payload.ts';

const tags = ['Webhook delivery log'];
// A valid token; the subscription must be the caller's (else 404), and the scopes of its event types
// the token's (else 403): their read scopes to read the log, all their scopes to resend or recover.
const config = { authenticated: true } as const;

export const MessageId = Type.String({
  pattern: '^msg_[a-z2-7]{26}$',
  description: 'The message id: the webhook-id header of its notifications',
  examples: ['msg_2lt9uvbjdhdcnb2mkzpzc3pje5'],
});

const MessageSchema = Type.Object(
  {
    id: MessageId,
    eventId: Uuid('The event this message carries'),
    eventType: Type.String({ examples: ['v1.export-job.created'] }),
    status: Type.Unsafe<MessageStatus>(
      Type.String({
        enum: [...MESSAGE_STATUSES],
        description: 'pending (attempts to come), delivered (a 2xx came) or failed (every attempt failed)',
      }),
    ),
    attempts: Type.Integer({ description: 'Attempts made so far, resends included' }),
    nextAttemptAt: Nullable(Timestamp('When the next attempt is due; null unless pending')),
    createdAt: Timestamp('When the event was recorded (UTC)'),
    deliveredAt: Nullable(Timestamp('When a 2xx answer was recorded')),
  },
  { description: 'One event for one subscription' },
);

const MessageWithPayloadSchema = Type.Object(
  {
    ...MessageSchema.properties,
    payload: eventPayloadSchema(
      Type.Unknown({ description: "The event's data: the schema GET /v1/event-types lists for its type" }),
    ),
  },
  { description: 'One event for one subscription, with what its notifications carry' },
);

const AttemptSchema = Type.Object({
  attempt: Type.Integer({ description: '1 for the first; numbering goes on across resends' }),
  startedAt: Timestamp('When the request started (UTC)'),
  durationMs: Type.Integer({ description: 'Connect, send and response, in milliseconds' }),
  statusCode: Nullable(Type.Integer({ description: 'The HTTP status; null when no response came' })),
  error: Nullable(Type.String({ description: 'Why no response came: timeout, refused connection, TLS, address…' })),
  responseBody: Nullable(Type.String({ description: 'The first 4 KiB of the response body' })),
  retryAfterMs: Nullable(
    Type.Integer({
      description:
        "The wait a 429 or 503 answer asked for with Retry-After, capped at WEBHOOK_RETRY_SCHEDULE's longest wait: the next attempt came no sooner. Null when it asked for none",
    }),
  ),
  succeeded: Type.Boolean({ description: 'A 2xx within WEBHOOK_TIMEOUT_MS' }),
});

const SubscriptionParams = Type.Object({ id: Uuid('The subscription') });

const RecoverBody = Type.Object({
  since: TimestampInput('Messages created at or after this time'),
  until: Type.Optional(TimestampInput('Messages created before this time; now by default')),
});

const TestEventBody = Type.Object({
  eventType: Type.String({
    description: "One of the subscription's event types",
    examples: ['v1.account.updated'],
  }),
});

const RecoverySchema = Type.Object(
  {
    id: Uuid('The recovery'),
    subscriptionId: Uuid('The subscription'),
    since: Timestamp('The window starts here (UTC)'),
    until: Timestamp('The window ends before this (UTC); at most the time of the request'),
    messages: Type.Integer({
      description: 'Failed messages in the window when it was asked for; each is queued again once',
    }),
    createdAt: Timestamp('When it was asked for (UTC)'),
  },
  { description: 'A recovery of failed messages' },
);
const MessageParams = Type.Object({ id: Uuid('The subscription'), messageId: MessageId });

const HealthSchema = Type.Object(
  {
    subscriptionId: Uuid('The subscription'),
    lastAttemptAt: Nullable(Timestamp('The last attempt to its endpoint (UTC); null before the first')),
    lastDeliveredAt: Nullable(Timestamp('The last attempt answered with a 2xx (UTC)')),
    lastFailure: Nullable(
      Type.Object({
        at: Timestamp('When the last failed attempt started (UTC)'),
        statusCode: Nullable(Type.Integer({ description: 'Its HTTP status; null when no response came' })),
        error: Nullable(Type.String({ description: 'Why no response came' })),
      }),
    ),
    consecutiveFailures: Type.Integer({ description: 'Failed attempts since the last success' }),
    failingSince: Nullable(Timestamp('The first of those failures (UTC); null while it delivers')),
    last24Hours: Type.Object(
      {
        delivered: Type.Integer({ description: 'Messages delivered' }),
        failedAttempts: Type.Integer({ description: 'Attempts that failed' }),
        failed: Type.Integer({ description: 'Messages that ended failed, every attempt spent' }),
      },
      { description: 'This hour and the 23 whole hours before it' },
    ),
    rateLimitPerSecond: Nullable(
      Type.Integer({
        description:
          "The most notifications per second its endpoint is sent (the subscription's rateLimitPerSecond): a backlog drains at this rate. Null without one",
      }),
    ),
  },
  { description: "The subscription's delivery health" },
);

const MessageListQuery = Type.Object({
  status: Type.Optional(Type.String({ enum: [...MESSAGE_STATUSES], description: 'Only messages in this status' })),
  ...pageQueryProperties(['createdAt']),
});

const AttemptListQuery = Type.Object(pageQueryProperties(['attempt']));

export function registerDeliveryLogRoutes(app: App, { db }: RouteDeps): void {
  app.get(
    '/v1/subscriptions/:id/messages',
    {
      config,
      preValidation: splitCommaLists,
      schema: {
        operationId: 'listSubscriptionMessages',
        security: securityOf('read'),
        summary: 'List the messages sent to a subscription',
        description: 'One message per event sent to the subscription, oldest first; id breaks ties.',
        tags,
        params: SubscriptionParams,
        querystring: MessageListQuery,
        response: {
          200: Type.Object({ data: Type.Array(MessageSchema), pagination: PageInfoSchema }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { id: subscriptionId } = request.params;
      const status = (request.query.status as MessageStatus | undefined) ?? null;
      const page = parsePageRequest(request, {
        resource: 'subscription-messages',
        filters: { subscriptionId, status },
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: MESSAGE_SORT_COLUMNS,
      });
      const result = await operations.listMessages(db, request.principal, subscriptionId, status, page);
      return sendPage(reply, result, page);
    },
  );

  app.get(
    '/v1/subscriptions/:id/messages/:messageId',
    {
      config,
      schema: {
        operationId: 'getSubscriptionMessage',
        security: securityOf('read'),
        summary: 'Read a message sent to a subscription, with its payload',
        tags,
        params: MessageParams,
        response: { 200: Type.Object({ data: MessageWithPayloadSchema }), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.getMessage(db, request.principal, request.params.id, request.params.messageId),
    }),
  );

  app.get(
    '/v1/subscriptions/:id/messages/:messageId/attempts',
    {
      config,
      preValidation: splitCommaLists,
      schema: {
        operationId: 'listMessageAttempts',
        security: securityOf('read'),
        summary: 'List the delivery attempts of a message',
        description: `By attempt number, first first unless sorting_order says DESC. Paged like every list, since a message resent again and again has as many attempts: a page ends at limit attempts (at most ${ATTEMPTS_PER_PAGE}) or about 1 MiB.`,
        tags,
        params: MessageParams,
        querystring: AttemptListQuery,
        response: {
          200: Type.Object({ data: Type.Array(AttemptSchema), pagination: PageInfoSchema }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { id: subscriptionId, messageId } = request.params;
      const page = parsePageRequest(request, {
        resource: 'message-attempts',
        filters: { subscriptionId, messageId },
        defaultSort: [{ key: 'attempt', order: 'ASC' }],
        columns: ATTEMPT_SORT_COLUMNS,
      });
      const result = await operations.listAttempts(db, request.principal, subscriptionId, messageId, page);
      return sendPage(reply, result, page);
    },
  );

  app.post(
    '/v1/subscriptions/:id/messages/:messageId(^[^:/]+)::resend',
    {
      config: { ...config, optionalBody: true },
      schema: {
        operationId: 'resendMessage',
        security: securityOf('manage'),
        summary: 'Send a message again',
        description:
          'Puts the message (in any status) back in the queue, due at once and with the whole retry schedule ahead of it. It keeps its webhook-id; attempt numbers go on from the last. 409 SUBSCRIPTION_DISABLED while the service keeps the subscription stopped (its endpoint kept failing, or its client is revoked).',
        tags,
        params: MessageParams,
        body: NoFieldsBody,
        response: {
          202: Type.Object({ data: MessageSchema }, { description: 'Queued' }),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request, reply) => {
      const { id: subscriptionId, messageId } = request.params;
      const message = await operations.resendMessage(db, request.principal, subscriptionId, messageId);
      return reply.status(202).send({ data: message });
    },
  );

  app.post(
    '/v1/subscriptions/:id(^[^:/]+)::recover',
    {
      config,
      schema: {
        operationId: 'recoverSubscriptionMessages',
        security: securityOf('manage'),
        summary: 'Send failed messages again',
        description:
          'Queues again every message of the subscription that was created in the window and ended failed, in the order they were created, each with its webhook-id and the whole retry schedule ahead of it (as a resend). The workers queue them in batches right after the answer. Asking twice queues each message once.',
        tags,
        params: SubscriptionParams,
        body: RecoverBody,
        response: {
          202: Type.Object({ data: RecoverySchema }, { description: 'Accepted' }),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request, reply) => {
      const { since, until } = request.body;
      const recovery = await operations.recoverMessages(db, request.principal, request.params.id, {
        since,
        until: until ?? null,
      });
      return reply.status(202).send({ data: recovery });
    },
  );

  app.post(
    '/v1/subscriptions/:id(^[^:/]+)::test',
    {
      config,
      schema: {
        operationId: 'sendTestEvent',
        security: securityOf('manage'),
        summary: 'Send a test event to a subscription',
        description:
          "Records an event of one of the subscription's types, with the example data GET /v1/event-types shows, and queues it for this subscription alone: the workers sign and send it now, and it is in the delivery log like any message. The event belongs to no company, so no other subscription gets it and no feed lists it. 409 while the subscription is INACTIVE.",
        tags,
        params: SubscriptionParams,
        body: TestEventBody,
        response: {
          202: Type.Object({ data: MessageSchema }, { description: 'Queued' }),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request, reply) => {
      const { id: subscriptionId } = request.params;
      const message = await operations.sendTestEvent(db, request.principal, subscriptionId, request.body.eventType);
      return reply.status(202).send({ data: message });
    },
  );

  app.get(
    '/v1/subscriptions/:id/health',
    {
      config,
      schema: {
        operationId: 'getSubscriptionHealth',
        security: securityOf('read'),
        summary: "Read a subscription's delivery health",
        description:
          'The last delivery and the last failure with its reason, the failed attempts since the last success, and the counts of the last day. Kept as attempts are recorded, so reading it costs the same for a million messages as for one.',
        tags,
        params: SubscriptionParams,
        response: { 200: Type.Object({ data: HealthSchema }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await operations.getHealth(db, request.principal, request.params.id) }),
  );
}
