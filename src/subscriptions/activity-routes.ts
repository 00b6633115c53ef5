// GET /v1/subscriptions/{id}/activities: a subscription's audit trail, as the reference API's
// getSubscriptionActivities shapes it (docs/decisions/subscriptions.md, "Activities").
import Type from 'typebox';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import type { App, RouteDeps } from '../http/app.ts';
import { pageQueryProperties, parsePageRequest, splitCommaListsOf } from '../http/pagination/page-request.ts';
import { PageInfoSchema, sendPage } from '../http/pagination/page-response.ts';
import { errorResponses, Timestamp, Uuid } from '../http/schemas.ts';
import {
  ACTIVITY_SORT_COLUMNS,
  listActivities,
  OPERATION_TYPES,
  type OperationType,
  trailInReach,
} from './activity-store.ts';
import { reachOf, subscriptionNotFound } from './operations.ts';
import { assertRight, securityOf } from './rights.ts';
import { SubscriptionIdParams } from './schemas.ts';

const ChangeSchema = Type.Object({
  field: Type.String({
    description:
      'status, eventTypes, endpointUrl (user info, query and parameter values, and path segments that are not words shown as …), customHeaders (names only), endpointAuth (type and username), customHeaderValues or endpointAuthPassword (only that they changed)',
  }),
  before: Type.Unknown({ description: 'The value before; null for a new subscription' }),
  after: Type.Unknown({ description: 'The value after' }),
});

const ActivitySchema = Type.Object(
  {
    id: Uuid('The activity'),
    subscriptionId: Uuid('The subscription'),
    operationType: Type.String({
      enum: [...OPERATION_TYPES],
      description: 'CREATE, UPDATE (a PUT or a secret rotation), DELETE, or DISABLE (the service stopped it)',
    }),
    actorUrn: Type.String({
      description:
        'urn:ledgerhook:client:<client_id>, urn:ledgerhook:user:<sub>, urn:ledgerhook:operator or urn:ledgerhook:system',
      examples: ['urn:ledgerhook:client:5b0c2a7e-1b2d-4c3e-8f4a-5b6c7d8e9f01'],
    }),
    description: Type.String({ examples: ['Changed endpointUrl, eventTypes'] }),
    changes: Type.Array(ChangeSchema, { description: 'The fields that changed; never a secret' }),
    createdAt: Timestamp('When it happened (UTC)'),
  },
  { description: 'One change of a subscription' },
);

const ActivityListQuery = Type.Object({
  operation_types: Type.Optional(
    Type.Array(Type.String({ enum: [...OPERATION_TYPES] }), {
      uniqueItems: true,
      description: 'Only these operation types; repeat the parameter or separate with commas. All when absent',
    }),
  ),
  ...pageQueryProperties(['createdAt', 'id']),
});

const splitListParameters = splitCommaListsOf(['operation_types', 'sorting_keys', 'sorting_order']);

/** The trail, also of a deleted subscription, for a caller who may reach it (else 404). */
async function listTrail(
  db: Database,
  principal: Principal,
  subscriptionId: string,
  operationTypes: OperationType[] | null,
  position: PagePosition,
) {
  const eventTypes = await trailInReach(db, subscriptionId, reachOf(principal));
  if (!eventTypes) throw subscriptionNotFound(subscriptionId);
  assertRight(principal, eventTypes, 'read', "Reading this subscription's trail");
  return listActivities(db, subscriptionId, operationTypes, position);
}

export function registerActivityRoutes(app: App, { db }: RouteDeps): void {
  app.get(
    '/v1/subscriptions/:id/activities',
    {
      config: { authenticated: true },
      preValidation: splitListParameters,
      schema: {
        operationId: 'getSubscriptionActivities',
        security: securityOf('read'),
        summary: 'Get subscription activities',
        description:
          "The subscription's audit trail, oldest first unless sorting_keys says otherwise: who created, changed, deleted or disabled it, when, and which fields changed. A deleted subscription's trail stays readable by its owner for WEBHOOK_RETENTION.",
        tags: ['Webhook subscriptions'],
        params: SubscriptionIdParams,
        querystring: ActivityListQuery,
        response: {
          200: Type.Object({ data: Type.Array(ActivitySchema), pagination: PageInfoSchema }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const { id: subscriptionId } = request.params;
      const types = request.query.operation_types?.length
        ? ([...new Set(request.query.operation_types)].sort() as OperationType[])
        : null;
      const page = parsePageRequest(request, {
        resource: 'subscription-activities',
        filters: { subscriptionId, types },
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: ACTIVITY_SORT_COLUMNS,
      });
      return sendPage(reply, await listTrail(db, request.principal, subscriptionId, types, page), page);
    },
  );
}
