// The OpenAPI document's `webhooks`: one entry per event type of the registry, so that a receiver's
// author sees the body and the headers each notification carries (send-notification.ts writes them).
import { MessageId } from './delivery-log-routes.ts';
import { eventPayloadSchema } from './event-payload.ts';
import { EVENT_TYPES, type EventTypeDefinition } from './event-types.ts';

const HEADERS = [
  {
    name: 'webhook-id',
    description:
      'The message id: one per event and subscription, the same on every retry, so deduplicate on it; GET /v1/subscriptions/{id}/messages/{messageId}/attempts lists its attempts',
    schema: JSON.parse(JSON.stringify(MessageId)),
  },
  {
    name: 'webhook-timestamp',
    description: 'Unix seconds when this attempt was signed; refuse one far from your clock',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks signature: space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, one per active secret of the subscription (two while a rotation overlaps). Verify with any Standard Webhooks library (svix, standardwebhooks) and the secret from GET /v1/subscriptions/{id}/secret',
    schema: { type: 'string' },
  },
];

function notification(definition: EventTypeDefinition) {
  return {
    post: {
      operationId: definition.type,
      summary: definition.description,
      description: `Sent to each active subscription of the company that lists ${definition.type}${definition.scopes.length > 0 ? `, when its credential holds ${definition.scopes.join(' and ')}` : ''}. Also carries user-agent ledgerhook/<version>, and the subscription's own headers and basic authentication when it has them.`,
      tags: ['Webhook notifications'],
      security: [],
      parameters: HEADERS.map((header) => ({ ...header, in: 'header', required: true })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['payload'],
              properties: {
                payload: JSON.parse(JSON.stringify(eventPayloadSchema(definition.dataSchema, definition.type))),
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received. Any other status, or none within WEBHOOK_TIMEOUT_MS, is retried' },
      },
    },
  };
}

/** The `webhooks` object of the OpenAPI document, keyed by event type. */
export function eventTypeWebhooks(): Record<string, ReturnType<typeof notification>> {
  return Object.fromEntries(EVENT_TYPES.map((definition) => [definition.type, notification(definition)]));
}
