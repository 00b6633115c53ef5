import Type from 'typebox';
import type { App, RouteDeps } from '../http/app.ts';
import { errorResponses } from '../http/schemas.ts';
import { EVENT_TYPES } from './event-types.ts';

const EventTypeListSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      eventType: Type.String({ examples: ['v1.export-job.created'] }),
      version: Type.String({ examples: ['v1'] }),
      description: Type.String(),
      scopes: Type.Array(Type.String(), { description: 'Scopes a subscription needs to receive it' }),
      dataSchema: Type.Unknown({ description: 'JSON schema of the event data' }),
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
    dataSchema: JSON.parse(JSON.stringify(t.dataSchema)) as unknown,
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
