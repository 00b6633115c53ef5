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
  /** Every scope a subscription's credential must hold to receive the event. */
  scopes: readonly Scope[];
  /** The schema of the event's `data`: the resource exactly as its API answers it. */
  dataSchema: TSchema;
  description: string;
}

export const EVENT_TYPES = [
  {
    type: 'v1.export-job.created',
    version: 'v1',
    scopes: ['export-jobs:read', 'export-jobs:write'],
    dataSchema: ExportJobSchema,
    description: 'An export job was created (a user started an export); data is the job as GET answers it.',
  },
] as const satisfies readonly EventTypeDefinition[];

export type EventType = (typeof EVENT_TYPES)[number]['type'];

export function findEventType(type: string): EventTypeDefinition | undefined {
  return EVENT_TYPES.find((definition) => definition.type === type);
}
