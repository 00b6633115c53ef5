import Type from 'typebox';
import type { App, RouteDeps } from '../http/app.ts';
import { errorResponses } from '../http/schemas.ts';
import { toEventPayload } from './event-payload.ts';
import { EVENT_TYPES } from './event-types.ts';

const EventTypeListSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      eventType: Type.String({ examples: ['v1.export-job.created'] }),
      version: Type.String({ examples: ['v1'] }),
      description: Type.String(),
      scopes: Type.Array(Type.String(), {
        description: 'Scopes a credential needs to subscribe to it and to manage such a subscription',
      }),
      readScope: Type.Union([Type.String(), Type.Null()], {
        description:
          'The scope that reads its messages and their payloads; null for an operational event, which needs none',
      }),
      dataSchema: Type.Unknown({ description: 'JSON schema of the event data' }),
      example: Type.Unknown({
        description: 'An example of the JSON body a notification of this type sends: `{ "payload": { … } }`',
      }),
    }),
  ),
});

// The list never changes while the process runs; it is built once.
const EVENT_TYPE_LIST = {
  data: EVENT_TYPES.map((t) => ({
    eventType: t.type,
    version: t.version,
    description: t.description,
    scopes: [...t.scopes],
    readScope: t.readScope,
    dataSchema: JSON.parse(JSON.stringify(t.dataSchema)) as unknown,
    example: {
      payload: toEventPayload({
        data: t.exampleData,
        eventId: '3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a',
        eventType: t.type,
        previousAttributes: t.examplePreviousAttributes,
        sequence: 4711,
      }),
    },
  })),
};

export function registerEventTypeRoutes(app: App, _deps: RouteDeps): void {
  app.get(
    '/v1/event-types',
    {
      // Any credential may learn what it could subscribe to; subscribing checks each type's scopes.
      config: { authenticated: true },
      schema: {
        operationId: 'listEventTypes',
        summary: 'List the event types webhooks can carry',
        tags: ['Webhooks'],
        response: { 200: EventTypeListSchema, ...errorResponses() },
      },
    },
    async () => EVENT_TYPE_LIST,
  );
}
