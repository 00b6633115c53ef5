// The webhook subscriptions contract (docs/decisions/subscriptions.md, the reference API's
// SubscriptionRequest, SubscriptionResponse and SubscriptionSecretResponse): request and response
// schemas, which are also the OpenAPI document's, and the types the code and tests share.
import Type, { type Static } from 'typebox';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { Nullable, Timestamp, Uuid } from '../http/schemas.ts';
import { EVENT_TYPES } from '../webhooks/event-types.ts';

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
/** Why the service itself made a subscription INACTIVE (migrations 0020, 0022). */
export const SUBSCRIPTION_STATUS_REASONS = ['ENDPOINT_FAILING', 'CLIENT_REVOKED'] as const;
export const ENDPOINT_AUTH_TYPES = ['NONE', 'BASIC'] as const;
export const SUBSCRIPTION_SORT_KEYS = ['createdAt', 'id'] as const;

export const MAX_ENDPOINT_URL_LENGTH = 2048;
export const MAX_CUSTOM_HEADERS = 20;
export const MAX_CUSTOM_HEADER_VALUE_LENGTH = 1024;
export const MAX_CUSTOM_HEADER_NAME_LENGTH = 256;
/** The highest rate a subscription may set (migration 0035 checks it too). */
export const MAX_RATE_LIMIT_PER_SECOND = 1000;

const RATE_LIMIT_DESCRIPTION = `Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to ${MAX_RATE_LIMIT_PER_SECOND}); a backlog drains at that rate`;

const OneOf = <T extends readonly string[]>(values: T, description: string, options: { default?: T[number] } = {}) =>
  Type.Unsafe<T[number]>(Type.String({ enum: [...values], description, ...options }));

const EventTypeName = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'A versioned event type of GET /v1/event-types',
  examples: ['v1.export-job.created'],
});

const CustomHeaders = (description: string) =>
  Type.Record(Type.String(), Type.String(), { description, examples: [{ 'x-api-key': 'key-of-the-receiver' }] });

// Basic credentials as RFC 7617 allows them: no control characters; no colon in the user name.
const BasicCredentials = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\x00-\\x1f\\x7f:]*$', examples: ['username'] }),
    password: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\x00-\\x1f\\x7f]*$', examples: ['password'] }),
    // The reference's AuthCredential has it, for a bearer type neither it nor the service has.
    token: Type.Optional(Type.String({ maxLength: 4096, description: 'Accepted and ignored: no type sends a token' })),
  },
  { description: 'Sent as HTTP Basic authorization with every notification; the password is never returned' },
);

export const EndpointAuthRequestSchema = Type.Object(
  {
    type: Type.Optional(OneOf(ENDPOINT_AUTH_TYPES, 'NONE (default) or BASIC', { default: 'NONE' })),
    credentials: Type.Optional(BasicCredentials),
  },
  { description: 'How notifications authenticate to the endpoint: BASIC needs credentials, NONE takes none' },
);

export const SubscriptionRequestSchema = Type.Object({
  status: Type.Optional(
    OneOf(SUBSCRIPTION_STATUSES, 'INACTIVE subscriptions receive nothing. Default ACTIVE', { default: 'ACTIVE' }),
  ),
  eventTypes: Type.Array(EventTypeName, {
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    description: 'Known event types; each needs the scopes GET /v1/event-types lists for it (else 403)',
  }),
  endpointUrl: Type.String({
    minLength: 1,
    maxLength: MAX_ENDPOINT_URL_LENGTH,
    description: `The https URL notifications are POSTed to, at most ${MAX_ENDPOINT_URL_LENGTH} characters`,
    examples: ['https://example.com/webhook'],
  }),
  customHeaders: Type.Optional({
    ...CustomHeaders(
      `Sent with every notification: at most ${MAX_CUSTOM_HEADERS}; names are HTTP header tokens, not webhook-*, host, content-length, transfer-encoding, connection or another hop-by-hop header; authorization not with BASIC; values at most ${MAX_CUSTOM_HEADER_VALUE_LENGTH} characters, no control characters`,
    ),
    maxProperties: MAX_CUSTOM_HEADERS,
  }),
  endpointAuth: Type.Optional(EndpointAuthRequestSchema),
  rateLimitPerSecond: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: MAX_RATE_LIMIT_PER_SECOND,
        description: `${RATE_LIMIT_DESCRIPTION}. Null removes it; omitted on PUT, it stays as it is`,
        examples: [20],
      }),
    ),
  ),
});

const EndpointAuthSchema = Type.Object(
  { type: OneOf(ENDPOINT_AUTH_TYPES, 'NONE when notifications carry no authorization') },
  { description: 'How notifications authenticate to the endpoint (credentials are never returned)' },
);

export const SubscriptionSchema = Type.Object(
  {
    id: Uuid('Identifier of the subscription'),
    status: OneOf(SUBSCRIPTION_STATUSES, 'ACTIVE or INACTIVE'),
    // Ours, beside the reference's fields (docs/decisions/subscriptions.md, "Why it is INACTIVE").
    statusReason: Nullable(
      OneOf(
        SUBSCRIPTION_STATUS_REASONS,
        'Why the service made it INACTIVE: ENDPOINT_FAILING, its endpoint failed every attempt for WEBHOOK_DISABLE_AFTER (fix it, PUT it ACTIVE, then :recover); CLIENT_REVOKED, its client was revoked (it stays INACTIVE). Null when its status is the one last sent',
      ),
    ),
    eventTypes: Type.Array(EventTypeName, { uniqueItems: true }),
    endpointUrl: Type.String({ examples: ['https://example.com/webhook'] }),
    createdAt: Timestamp('When the subscription was created (UTC)'),
    updatedAt: Timestamp('When it last changed (UTC)'),
    endpointAuth: EndpointAuthSchema,
    customHeaders: CustomHeaders('Headers sent with every notification'),
    rateLimitPerSecond: Nullable(Type.Integer({ description: `${RATE_LIMIT_DESCRIPTION}. Null when it has none` })),
  },
  { description: 'A webhook subscription' },
);

// The interface's shape (endpointAuth and customHeaders beside data) and the reference API's (inside).
export const SubscriptionEnvelope = Type.Object(
  { data: SubscriptionSchema, endpointAuth: EndpointAuthSchema, customHeaders: CustomHeaders('As data.customHeaders') },
  { description: 'One subscription; endpointAuth and customHeaders also beside data' },
);

export const SubscriptionPageSchema = Type.Object({
  data: Type.Array(SubscriptionSchema),
  pagination: PageInfoSchema,
});

export const SubscriptionSecretEnvelope = Type.Object(
  {
    data: Type.Object({
      secretKey: Type.String({
        description: 'The current signing secret (Standard Webhooks): `whsec_` and base64 of 32 bytes',
        examples: ['whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oDXqS7ug3YlnE='],
      }),
    }),
  },
  { description: 'The signing secret of a subscription' },
);

export const SubscriptionIdParams = Type.Object({ id: Uuid('The subscription') });

export const SubscriptionListQuery = Type.Object({
  status: Type.Optional(OneOf(SUBSCRIPTION_STATUSES, 'Only subscriptions in this status')),
  event_types: Type.Optional(
    Type.Array(Type.String({ enum: EVENT_TYPES.map((t) => t.type) }), {
      description: 'Only subscriptions to any of these event types; repeat the parameter or separate with commas',
    }),
  ),
  ...pageQueryProperties(SUBSCRIPTION_SORT_KEYS),
});

export type SubscriptionRequest = Static<typeof SubscriptionRequestSchema>;
export type Subscription = Static<typeof SubscriptionSchema>;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type SubscriptionStatusReason = (typeof SUBSCRIPTION_STATUS_REASONS)[number];
