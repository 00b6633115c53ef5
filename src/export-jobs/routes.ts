import Type from 'typebox';
import type { App, RouteDeps } from '../http/app.ts';
import { answerWithoutBody } from '../http/content-types.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { ApiError } from '../http/problem.ts';
import { errorResponses, problemWith, Uuid } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  ExportJobCreateSchema,
  ExportJobEnvelope,
  ExportJobEventCreateSchema,
  ExportJobIdParams,
  ExportJobItemListQuery,
  ExportJobItemPageSchema,
  ExportJobItemUpdateListSchema,
  ExportJobItemUpdateResultSchema,
  ExportJobListQuery,
  ExportJobPageSchema,
  MAX_ITEM_UPDATES,
} from './schemas.ts';
import { EXPORT_JOB_ITEM_SORT_COLUMNS, EXPORT_JOB_SORT_COLUMNS } from './store.ts';

const tags = ['Export jobs'];

export function registerExportJobRoutes(app: App, { db, config }: RouteDeps): void {
  const settings = { ttlSeconds: config.exportJobTtlSeconds };

  app.post(
    '/v2/export-jobs',
    {
      config: { scope: 'export-jobs:write' },
      schema: {
        operationId: 'createExportJobV2',
        summary: 'Create an export job',
        description:
          'Selects accountingEntryIds (each an entry of the company, else 400 UNKNOWN_ACCOUNTING_ENTRY) or, by default, every entry of the company not yet in any export job. Emits v1.export-job.created with the job as answered. 409 EXPORT_ALREADY_IN_PROGRESS, with the blocking job as existingJobId, while the company has a pending or in_progress job.',
        tags,
        body: ExportJobCreateSchema,
        response: {
          201: { ...ExportJobEnvelope, description: 'Export job created' },
          ...errorResponses(),
          409: problemWith(
            {
              existingJobId: Type.Optional(
                Uuid('The pending or in_progress job that blocks this one (absent only if it has just closed)'),
              ),
            },
            'EXPORT_ALREADY_IN_PROGRESS: the company has a pending or in_progress job',
          ),
        },
      },
    },
    async (request, reply) => {
      const job = await operations.createExportJob(db, request.principal, request.body, settings);
      return reply.status(201).send({ data: job });
    },
  );

  app.get(
    '/v2/export-jobs/:jobId',
    {
      config: { scope: 'export-jobs:read' },
      schema: {
        operationId: 'getExportJobByIdV2',
        summary: 'Get an export job',
        tags,
        params: ExportJobIdParams,
        response: { 200: ExportJobEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.getExportJob(db, request.principal, request.params.jobId, settings),
    }),
  );

  app.get(
    '/v2/export-jobs',
    {
      config: { scope: 'export-jobs:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'getExportJobsListV2',
        summary: 'List export jobs',
        description:
          'Jobs of company_id (a company the token lists, else 403), or of every company the token lists, in any of `statuses` and the deprecated `status` (both together: any of them all). Sorted by createdAt unless sorting_keys says otherwise; id breaks ties.',
        tags,
        querystring: ExportJobListQuery,
        response: { 200: ExportJobPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toExportJobFilters(request.principal, request.query);
      const page = parsePageRequest(request, {
        resource: 'export-jobs',
        filters,
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: EXPORT_JOB_SORT_COLUMNS,
      });
      const result = await operations.listExportJobs(db, request.principal, filters, page, settings);
      return sendPage(reply, result, page);
    },
  );

  app.post(
    '/v2/export-job-events',
    {
      config: { scope: 'export-jobs:write' },
      schema: {
        operationId: 'createExportJobEventV2',
        summary: 'Report progress of an export job',
        description:
          'started moves a pending job to in_progress; completed and completed_with_errors end an in_progress job; failed ends a pending or in_progress job. Any other change is 422 INVALID_EXPORT_JOB_STATUS_CHANGE and leaves the job unchanged. failureReason and failureReasonType are stored with failed. Each change emits its event (v1.export-job.started, completed, completed-with-errors or failed) with the job as GET answers it after the change.',
        tags,
        body: ExportJobEventCreateSchema,
        response: { 202: { type: 'null', description: 'Status changed; no body' }, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      await operations.recordExportJobEvent(db, request.principal, request.body, settings);
      return answerWithoutBody(reply, 202);
    },
  );

  app.get(
    '/v2/export-jobs/:jobId/items',
    {
      config: { scope: 'export-items:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'getExportJobItemsV2',
        summary: 'List the items of an export job',
        description: 'Sorted by createdAt unless sorting_keys says otherwise; accountingEntryId breaks ties.',
        tags,
        params: ExportJobIdParams,
        querystring: ExportJobItemListQuery,
        response: { 200: ExportJobItemPageSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { jobId } = request.params;
      const status = request.query.status ?? null;
      const page = parsePageRequest(request, {
        resource: 'export-job-items',
        filters: { jobId, status },
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: EXPORT_JOB_ITEM_SORT_COLUMNS,
      });
      const result = await operations.listExportJobItems(db, request.principal, jobId, status, page);
      return sendPage(reply, result, page);
    },
  );

  app.put(
    '/v2/export-jobs/:jobId/items',
    {
      config: { scope: 'export-jobs:write' },
      schema: {
        operationId: 'updateExportJobItemsV2',
        summary: 'Update items of an export job',
        description: `Up to ${MAX_ITEM_UPDATES} items per request (else 413 EXPORT_JOB_ITEMS_UPDATE_LIMIT). Entries that are not in the job are listed in errors; the others are updated. A finished job (completed, completed_with_errors, failed) answers 422 EXPORT_JOB_STATUS_UNPROCESSABLE and changes nothing.`,
        tags,
        params: ExportJobIdParams,
        body: ExportJobItemUpdateListSchema,
        response: { 200: ExportJobItemUpdateResultSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      if (request.body.length > MAX_ITEM_UPDATES) {
        throw new ApiError(
          'EXPORT_JOB_ITEMS_UPDATE_LIMIT',
          `At most ${MAX_ITEM_UPDATES} items per request, not ${request.body.length}`,
        );
      }
      return operations.updateExportJobItems(db, request.principal, request.params.jobId, request.body);
    },
  );
}
