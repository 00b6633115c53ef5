// GET /v1/events: a company's events, pulled (docs/decisions/events.md, "The feed"). Each item is
// exactly the payload its webhooks carry, so a receiver that missed notifications catches up with
// the same code, and skips what it already applied by eventId or sequence.
import Type from 'typebox';
import { hasScope, type Principal } from '../auth/principal.ts';
import type { App, RouteDeps } from '../http/app.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { pageQueryProperties, parsePageRequest, splitCommaListsOf } from '../http/pagination/page-request.ts';
import { PageInfoSchema, sendPage } from '../http/pagination/page-response.ts';
import { ApiError } from '../http/problem.ts';
import { errorResponses, problemResponse, Timestamp, TimestampInput, Uuid } from '../http/schemas.ts';
import { assertRight, securityOf } from '../subscriptions/rights.ts';
import { eventPayloadSchema } from './event-payload.ts';
import { EVENT_TYPES } from './event-types.ts';
import { type FeedCursor, type FeedFilters, listFeed } from './feed-store.ts';

/** The types a company's feed holds: every type but the operational ones, which belong to no company. */
const FEED_TYPES = EVENT_TYPES.filter((definition) => definition.readScope !== null);

const FeedItemSchema = Type.Object(
  {
    payload: eventPayloadSchema(
      Type.Unknown({ description: "The event's data: the schema GET /v1/event-types lists for its type" }),
    ),
    createdAt: Timestamp('When the event was recorded (UTC)'),
  },
  { description: 'One event: its payload exactly as its webhooks carry it' },
);

const { after, before, limit } = pageQueryProperties([]);

const FeedQuery = Type.Object(
  {
    company_id: Uuid('The company whose events to list; the token must list it'),
    event_types: Type.Optional(
      Type.Array(Type.String({ enum: FEED_TYPES.map((definition) => definition.type) }), {
        uniqueItems: true,
        description:
          'Only these types; repeat the parameter or separate with commas. Every type the token may read when absent',
      }),
    ),
    created_after: Type.Optional(TimestampInput('Only events recorded at or after this time')),
    created_before: Type.Optional(TimestampInput('Only events recorded before this time')),
    after,
    before,
    limit,
  },
  { additionalProperties: false },
);

const splitListParameters = splitCommaListsOf(['event_types']);

/**
 * The types to list: those asked, if the token reads each (else 403 naming the scopes it lacks), or
 * every type it reads (null when that is all of them). 403 when it reads none.
 */
function typesToList(principal: Principal, asked: string[] | undefined): string[] | null {
  if (asked !== undefined && asked.length > 0) {
    assertRight(principal, asked, 'read', 'Reading these events');
    return [...asked].sort();
  }
  const readable = FEED_TYPES.filter(
    (definition) => definition.readScope !== null && hasScope(principal, definition.readScope),
  );
  if (readable.length === 0)
    assertRight(
      principal,
      FEED_TYPES.map((definition) => definition.type),
      'read',
      'Reading events',
    );
  return readable.length === FEED_TYPES.length ? null : readable.map((definition) => definition.type);
}

const CURSOR_VALUES = [/^\d{1,20}$/, /^\d{1,19}$/, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/];

/**
 * The event a cursor points at (400 INVALID_CURSOR when it is not one of this query's), or 410 when
 * it was recorded longer ago than the retention: the events around it may be deleted, so paging on
 * from it could skip some without a word.
 */
function feedCursor(values: string[] | undefined, retentionMs: number): FeedCursor | undefined {
  if (values === undefined) return undefined;
  if (!values.every((value, i) => CURSOR_VALUES[i]?.test(value))) {
    throw new ApiError('INVALID_CURSOR', 'The cursor is malformed');
  }
  const [transactionId, sequence, createdAt] = values as [string, string, string];
  if (Date.parse(createdAt) < Date.now() - retentionMs) {
    throw new ApiError(
      'EVENT_CURSOR_EXPIRED',
      `The cursor points at an event recorded at ${createdAt}, longer ago than events are kept (${Math.round(retentionMs / 86_400_000)} days): start again from created_after`,
    );
  }
  return { transactionId, sequence, createdAt };
}

export function registerEventFeedRoutes(app: App, { db, config }: RouteDeps): void {
  app.get(
    '/v1/events',
    {
      config: { authenticated: true },
      preValidation: splitListParameters,
      schema: {
        operationId: 'listEvents',
        security: securityOf('read'),
        summary: "List a company's events",
        description: `The company's events, oldest first, each with the payload its webhooks carry (same eventId), kept for WEBHOOK_RETENTION. An event shows once every transaction older than its own has ended, so a page never gains an event behind a cursor already read: poll with the last page's endCursor as after. Each type needs its read scope (GET /v1/event-types). A cursor older than the retention answers 410 EVENT_CURSOR_EXPIRED. The pagination has no total: counting a company's events would cost every page.`,
        tags: ['Webhooks'],
        querystring: FeedQuery,
        response: {
          200: Type.Object({ data: Type.Array(FeedItemSchema), pagination: PageInfoSchema }),
          ...errorResponses(),
          410: problemResponse('The cursor is older than the retention: start again from created_after'),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      assertCompanyAccess(request.principal, query.company_id);
      const eventTypes = typesToList(request.principal, query.event_types);
      const filters: FeedFilters = {
        companyId: query.company_id.toLowerCase(),
        eventTypes,
        createdAfter: query.created_after ?? null,
        createdBefore: query.created_before ?? null,
      };
      const page = parsePageRequest(request, {
        resource: 'events',
        filters: { ...filters, eventTypes: query.event_types?.length ? eventTypes : null },
        defaultSort: [],
        termCount: () => CURSOR_VALUES.length,
      });
      const feed = await listFeed(db, filters, {
        limit: page.limit,
        after: feedCursor(page.after, config.webhookRetentionMs),
        before: feedCursor(page.before, config.webhookRetentionMs),
      });
      const values = (cursor: FeedCursor | undefined) =>
        cursor && [cursor.transactionId, cursor.sequence, cursor.createdAt];
      return sendPage(
        reply,
        {
          json: JSON.stringify(feed.items),
          first: values(feed.first),
          last: values(feed.last),
          hasNextPage: feed.hasNextPage,
          hasPreviousPage: feed.hasPreviousPage,
        },
        page,
      );
    },
  );
}
