// The registry of event types (docs/decisions/events.md): every change of the service's resources,
// what a subscriber needs to receive it, and the JSON schema of its `data`. Adding an event type is
// adding one entry; the route that makes the change records it (record-event.ts).
import Type, { type TSchema } from 'typebox';
import { AccountingEntrySchema } from '../accounting-entries/schemas.ts';
import { AccountSchema } from '../accounts/schemas.ts';
import type { Scope } from '../auth/principal.ts';
import { CategorySchema, GroupSchema } from '../bookkeeping-categories/schemas.ts';
import { BookkeepingPreferencesSchema } from '../bookkeeping-preferences/schemas.ts';
import { ContraAccountSchema } from '../contra-accounts/schemas.ts';
import { ExportJobSchema } from '../export-jobs/schemas.ts';
import { Timestamp, Uuid } from '../http/schemas.ts';
import { TaxCodeSchema } from '../tax-codes/schemas.ts';
import * as examples from './event-examples.ts';

export interface EventTypeDefinition {
  /** `v<version>.<resource>.<verb>`, e.g. v1.export-job.created. */
  type: string;
  /** The version prefix of `type`; a breaking change of `data` is a new type with the next one. */
  version: string;
  /**
   * Every scope a credential must hold to subscribe to the event, and to manage a subscription to it:
   * change or delete it, read or rotate its secret, resend and recover its messages.
   */
  scopes: readonly Scope[];
  /**
   * The scope that reads `data` through its own API; reading a delivered event needs it. Null for an
   * operational event, which any credential that reaches the subscription may read.
   */
  readScope: Scope | null;
  /** The schema of the event's `data`: the resource exactly as its API answers it. */
  dataSchema: TSchema;
  /** A `data` as a receiver gets it, shown beside the schema (test/webhooks/event-types.test.ts validates it). */
  exampleData: unknown;
  /**
   * The example's `previousAttributes`, or null when the type's payload carries none: only an event
   * that changed a resource which existed before has them.
   */
  examplePreviousAttributes: Record<string, unknown> | null;
  description: string;
}

type Verb = 'created' | 'updated' | 'deleted';

const VERB_SENTENCES: Record<Verb, string> = {
  created: 'was created; data is it as GET answers it',
  updated: 'was changed; data is it as GET answers it after the change, previousAttributes the changed fields before',
  deleted: 'was deleted; data is its last state',
};

/** The created, updated and deleted events of one resource, read with `scope`. */
function lifecycle<R extends string, V extends Verb = Verb>(
  resource: R,
  noun: string,
  scope: Scope,
  dataSchema: TSchema,
  exampleData: unknown,
  verbs: readonly V[] = ['created', 'updated', 'deleted'] as V[],
) {
  return verbs.map((verb) => ({
    type: `v1.${resource}.${verb}` as `v1.${R}.${V}`,
    version: 'v1',
    scopes: [scope],
    readScope: scope,
    dataSchema,
    exampleData,
    examplePreviousAttributes: verb === 'updated' ? { name: 'Old name', updatedAt: '2026-01-15T09:30:00.000Z' } : null,
    description: `${noun} ${VERB_SENTENCES[verb]}.`,
  }));
}

const EXPORT_JOB_SCOPES = ['export-jobs:read', 'export-jobs:write'] as const satisfies readonly Scope[];

/** An export job's event: the job as GET answers it once the change is made, from `previousStatus` unless created. */
function exportJobEvent<V extends string>(verb: V, when: string, status: string, previousStatus: string | null) {
  const changesExisting = previousStatus !== null;
  return {
    type: `v1.export-job.${verb}` as `v1.export-job.${V}`,
    version: 'v1',
    scopes: EXPORT_JOB_SCOPES,
    readScope: 'export-jobs:read',
    dataSchema: ExportJobSchema,
    exampleData: { ...examples.EXPORT_JOB_EXAMPLE, status },
    examplePreviousAttributes: changesExisting
      ? { status: previousStatus, lastUpdatedAt: '2026-01-15T09:10:00.000Z', expiresIn: 2400 }
      : null,
    description: `An export job ${when}; data is the job as GET answers it${changesExisting ? ', previousAttributes the changed fields before' : ''}.`,
  } as const;
}

export const SubscriptionDisabledSchema = Type.Object(
  {
    subscriptionId: Uuid('The subscription the service disabled'),
    endpointUrl: Type.String({ description: 'Its endpoint' }),
    eventTypes: Type.Array(Type.String(), { description: 'The event types it carried' }),
    reason: Type.String({
      enum: ['ENDPOINT_FAILING', 'CLIENT_REVOKED'],
      description:
        'ENDPOINT_FAILING: every attempt failed for WEBHOOK_DISABLE_AFTER (PUT status ACTIVE, then :recover); CLIENT_REVOKED: its client was revoked',
    }),
    disabledAt: Timestamp('When it was disabled (UTC)'),
  },
  { description: 'A subscription the service made INACTIVE' },
);

export const EVENT_TYPES = [
  exportJobEvent('created', 'was created (a user started an export)', 'pending', null),
  exportJobEvent('started', 'started (POST /v2/export-job-events started)', 'in_progress', 'pending'),
  exportJobEvent('completed', 'completed (event completed)', 'completed', 'in_progress'),
  exportJobEvent(
    'completed-with-errors',
    'completed with errors (event completed_with_errors)',
    'completed_with_errors',
    'in_progress',
  ),
  exportJobEvent('failed', 'failed (event failed)', 'failed', 'in_progress'),
  exportJobEvent(
    'expired',
    'ran out of EXPORT_JOB_TTL without a change and became failed (job_expired)',
    'failed',
    'in_progress',
  ),
  ...lifecycle(
    'account',
    'An account (v1-beta or the v1 chart of accounts)',
    'accounts:read',
    AccountSchema,
    examples.ACCOUNT_EXAMPLE,
  ),
  ...lifecycle('tax-code', 'A tax code', 'tax-codes:read', TaxCodeSchema, examples.TAX_CODE_EXAMPLE),
  ...lifecycle(
    'accounting-entry',
    'An accounting entry',
    'accounting-entries:read',
    AccountingEntrySchema,
    examples.ACCOUNTING_ENTRY_EXAMPLE,
    ['created', 'deleted'],
  ),
  ...lifecycle(
    'bookkeeping-category-group',
    'A bookkeeping category group',
    'bookkeeping-categories:read',
    GroupSchema,
    examples.CATEGORY_GROUP_EXAMPLE,
  ),
  ...lifecycle(
    'bookkeeping-category',
    'A bookkeeping category',
    'bookkeeping-categories:read',
    CategorySchema,
    examples.CATEGORY_EXAMPLE,
  ),
  ...lifecycle(
    'contra-account',
    'A contra account',
    'contra-accounts:read',
    ContraAccountSchema,
    examples.CONTRA_ACCOUNT_EXAMPLE,
  ),
  ...lifecycle(
    'bookkeeping-preferences',
    "A company's bookkeeping preferences",
    'bookkeeping-preferences:read',
    BookkeepingPreferencesSchema,
    examples.BOOKKEEPING_PREFERENCES_EXAMPLE,
    ['updated'],
  ),
  {
    type: 'v1.subscription.disabled',
    version: 'v1',
    scopes: [],
    readScope: null,
    dataSchema: SubscriptionDisabledSchema,
    exampleData: examples.SUBSCRIPTION_DISABLED_EXAMPLE,
    examplePreviousAttributes: null,
    description:
      "Operational: the service disabled one of the owner's subscriptions; sent to the owner's other subscriptions of this type, whatever their companies, and in no company's feed.",
  },
] as const satisfies readonly EventTypeDefinition[];

export type EventType = (typeof EVENT_TYPES)[number]['type'];

export function findEventType(type: string): EventTypeDefinition | undefined {
  return EVENT_TYPES.find((definition) => definition.type === type);
}
