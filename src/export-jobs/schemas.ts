// The export jobs contract (docs/decisions/export-jobs-and-events.md, the reference API v2:
// ExportJob, CreateExportJob, CreateExportJobEvent, ExportJobItem, UpdateExportJobItem): request
// and response schemas, which are also the OpenAPI document's, and the types the code and tests
// share.
import Type, { type Static } from 'typebox';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, Nullable, Timestamp, TimestampInput, Uuid } from '../http/schemas.ts';

export const EXPORT_JOB_STATUSES = ['pending', 'in_progress', 'failed', 'completed', 'completed_with_errors'] as const;
export const EXPORT_JOB_EVENT_TYPES = ['started', 'failed', 'completed', 'completed_with_errors'] as const;
export const EXPORT_JOB_ITEM_STATUSES = ['pending', 'in_progress', 'failed', 'successful', 'abandoned'] as const;
export const EXPORT_JOB_SORT_KEYS = ['createdAt', 'id'] as const;
export const EXPORT_JOB_ITEM_SORT_KEYS = ['createdAt', 'accountingEntryId'] as const;

export const EXPORT_JOB_FAILURE_REASON_TYPES = [
  'invalid_configuration',
  'missing_configuration',
  'authentication_failure',
  'accounting_system_authentication_failure',
  'pleo_rate_limit',
  'accounting_system_rate_limit',
  'service_unreachable',
  'accounting_system_unreachable',
  'validation_failure',
  'authorization_failure',
  'integration_unusable',
  'job_expired',
  'service_timeout',
  'accounting_system_timeout',
  'canceled_by_user',
] as const;

export const EXPORT_ITEM_FAILURE_REASON_TYPES = [
  'receipt_upload_failure',
  'receipt_download_failure',
  'receipt_file_size_limit_exceeded',
  'receipt_conversion_failure',
  'unexpected_failure',
  'invalid_configuration',
  'missing_configuration',
  'accounting_system_authentication_failure',
  'accounting_system_rate_limit',
  'accounting_system_unreachable',
  'validation_failure',
  'accounting_system_validation_failure',
  'authorization_failure',
  'accounting_system_timeout',
] as const;

/** At most this many items per PUT /v2/export-jobs/{jobId}/items; more is 413 (decisions/export-jobs-and-events.md). */
export const MAX_ITEM_UPDATES = 100;

const OneOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>(Type.String({ enum: [...values], description }));
const NullableTimestamp = (description: string) => Nullable(Timestamp(description));

export const ExportJobSchema = Type.Object(
  {
    id: Uuid('Identifier of the export job'),
    companyId: Uuid('Company the export job belongs to'),
    createdAt: Timestamp('When the job was created (UTC)'),
    createdBy: Nullable(Uuid("The user who created it: the request's employeeId, else the token subject")),
    expiresIn: Type.Integer({
      minimum: 0,
      description: 'Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600)',
    }),
    numberOfItems: Type.Integer({ minimum: 0, description: 'Accounting entries selected for export' }),
    status: OneOf(
      EXPORT_JOB_STATUSES,
      'Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail',
    ),
    isInteractive: Type.Boolean({ description: 'Whether a user (rather than the system) started it' }),
    vendorBasedBookkeeping: Type.Boolean({ description: 'Whether items include vendor and bookkeeping data' }),
    failureReason: Nullable(Type.String({ description: 'Why the job failed' })),
    failureReasonType: Nullable(OneOf(EXPORT_JOB_FAILURE_REASON_TYPES, 'Classification of the failure')),
    lastUpdatedAt: Timestamp('Last change of the job or its items (UTC)'),
    startedAt: NullableTimestamp('When it became in_progress'),
    completedAt: NullableTimestamp('When it reached completed, completed_with_errors or failed'),
    expiredAt: NullableTimestamp('When it expired'),
  },
  { description: 'An export job: a batch of accounting entries for an integration to transfer' },
);

export const ExportJobCreateSchema = Type.Object({
  companyId: Uuid('The company to export'),
  employeeId: Type.Optional(
    Nullable(Uuid('The user who started the export, stored as createdBy; absent or null: the token subject')),
  ),
  accountingEntryIds: Type.Optional(
    // Not uniqueItems: the reference's CreateExportJob allows an id twice, and an item is keyed by its
    // entry, so a repeated id is one item.
    Type.Array(Uuid(), {
      maxItems: 10_000,
      description:
        'Entries of the company to export, each once however often it is listed. Default: every entry of the company not yet in any export job item.',
    }),
  ),
  isInteractive: Type.Optional(Nullable(Type.Boolean({ default: true, description: 'Default true' }))),
  options: Type.Optional(
    Nullable(Type.Object({ vendorBasedBookkeeping: Type.Optional(Nullable(Type.Boolean({ default: false }))) })),
  ),
});

export const ExportJobEventCreateSchema = Type.Object({
  jobId: Uuid('The export job'),
  event: OneOf(
    EXPORT_JOB_EVENT_TYPES,
    'started: pending → in_progress; completed and completed_with_errors end an in_progress job; failed ends a pending or in_progress one',
  ),
  failureReason: Type.Optional(Type.String({ maxLength: 4000, description: 'Stored with a failed event' })),
  failureReasonType: Type.Optional(OneOf(EXPORT_JOB_FAILURE_REASON_TYPES, 'Stored with a failed event')),
});

export const ExportJobItemSchema = Type.Object({
  exportJobId: Uuid('The export job'),
  accountingEntryId: Uuid('The accounting entry being exported'),
  status: OneOf(EXPORT_JOB_ITEM_STATUSES, 'Export status of the entry'),
  exportedAt: NullableTimestamp('When it was exported'),
  externalId: Nullable(Type.String({ description: 'Identifier in the accounting system' })),
  externalUrl: Nullable(Type.String({ description: 'Address in the accounting system' })),
  failureReason: Nullable(Type.String()),
  failureReasonType: Nullable(OneOf(EXPORT_ITEM_FAILURE_REASON_TYPES, 'Classification of the failure')),
});

export const ExportJobItemUpdateSchema = Type.Object({
  accountingEntryId: Uuid('An entry of the job'),
  status: OneOf(EXPORT_JOB_ITEM_STATUSES, 'New status'),
  exportedAt: Type.Optional(TimestampInput('When it was exported')),
  externalId: Type.Optional(Type.String({ maxLength: 1000 })),
  externalUrl: Type.Optional(Type.String({ maxLength: 4000 })),
  failureReason: Type.Optional(Type.String({ maxLength: 4000 })),
  failureReasonType: Type.Optional(OneOf(EXPORT_ITEM_FAILURE_REASON_TYPES, 'Classification of the failure')),
});
// No maxItems: Fastify would answer 400; more than MAX_ITEM_UPDATES is 413 EXPORT_JOB_ITEMS_UPDATE_LIMIT instead.
export const ExportJobItemUpdateListSchema = Type.Array(ExportJobItemUpdateSchema, {
  description: `At most ${MAX_ITEM_UPDATES} items (else 413 EXPORT_JOB_ITEMS_UPDATE_LIMIT)`,
});

export const ExportJobItemUpdateResultSchema = Type.Object({
  data: Type.Array(ExportJobItemSchema, { description: 'The items as updated' }),
  errors: Type.Array(
    Type.Object({
      accountingEntryId: Uuid(),
      message: Type.String(),
      type: Type.String({ enum: ['ACCOUNTING_ENTRY_DOES_NOT_EXIST'] }),
    }),
    { description: 'Updates that named no item of the job' },
  ),
});

export const ExportJobIdParams = Type.Object({ jobId: Uuid('The export job') });
export const ExportJobListQuery = Type.Object({
  company_id: Type.Optional(Uuid('Only jobs of this company (one the token lists)')),
  status: Type.Optional(
    OneOf(
      EXPORT_JOB_STATUSES,
      'Deprecated: use statuses. Only jobs in this status, or in any of statuses when both are given',
    ),
  ),
  statuses: Type.Optional(
    Type.Array(OneOf(EXPORT_JOB_STATUSES, 'A status'), { description: 'Only jobs in any of these statuses' }),
  ),
  ...pageQueryProperties(EXPORT_JOB_SORT_KEYS),
});
export const ExportJobItemListQuery = Type.Object({
  status: Type.Optional(OneOf(EXPORT_JOB_ITEM_STATUSES, 'Only items in this status')),
  ...pageQueryProperties(EXPORT_JOB_ITEM_SORT_KEYS),
});

export const ExportJobEnvelope = DataEnvelope(ExportJobSchema, 'One export job');
export const ExportJobPageSchema = Type.Object({ data: Type.Array(ExportJobSchema), pagination: PageInfoSchema });
export const ExportJobItemPageSchema = Type.Object({
  data: Type.Array(ExportJobItemSchema),
  pagination: PageInfoSchema,
});

export type ExportJob = Static<typeof ExportJobSchema>;
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];
export type ExportJobCreate = Static<typeof ExportJobCreateSchema>;
export type ExportJobEventCreate = Static<typeof ExportJobEventCreateSchema>;
export type ExportJobItem = Static<typeof ExportJobItemSchema>;
export type ExportJobItemUpdate = Static<typeof ExportJobItemUpdateSchema>;
