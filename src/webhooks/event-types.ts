// The registry of event types (docs/decisions/export-jobs-and-events.md): what the service emits,
// the scopes a subscriber needs to receive it, and the JSON schema of its `data`. Adding an event
// type is adding one entry.
import type { TSchema } from 'typebox';
import type { Scope } from '../auth/principal.ts';
import { ExportJobSchema } from '../export-jobs/schemas.ts';

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
  /** The scope that reads `data` through its own API; reading a delivered event needs it. */
  readScope: Scope;
  /** The schema of the event's `data`: the resource exactly as its API answers it. */
  dataSchema: TSchema;
  /** A `data` as a receiver gets it, shown beside the schema (test/webhooks/event-types.test.ts validates it). */
  exampleData: unknown;
  description: string;
}

export const EVENT_TYPES = [
  {
    type: 'v1.export-job.created',
    version: 'v1',
    scopes: ['export-jobs:read', 'export-jobs:write'],
    readScope: 'export-jobs:read',
    dataSchema: ExportJobSchema,
    exampleData: {
      id: '0b7e2f4c-5d3a-4c1e-9a8f-2d6b1c3e4f50',
      companyId: '5f1d2c3b-8a7e-4d6c-b5a4-3e2f1d0c9b8a',
      createdAt: '2026-01-15T09:30:00.000Z',
      createdBy: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      expiresIn: 3600,
      numberOfItems: 42,
      status: 'pending',
      isInteractive: true,
      vendorBasedBookkeeping: false,
      failureReason: null,
      failureReasonType: null,
      lastUpdatedAt: '2026-01-15T09:30:00.000Z',
      startedAt: null,
      completedAt: null,
      expiredAt: null,
    },
    description: 'An export job was created (a user started an export); data is the job as GET answers it.',
  },
] as const satisfies readonly EventTypeDefinition[];

export type EventType = (typeof EVENT_TYPES)[number]['type'];

export function findEventType(type: string): EventTypeDefinition | undefined {
  return EVENT_TYPES.find((definition) => definition.type === type);
}
