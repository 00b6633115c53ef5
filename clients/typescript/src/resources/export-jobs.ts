// Export jobs v2: the jobs, their items and the events that move a job along.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class ExportJobs {
  readonly #transport: Transport;
  readonly items: ExportJobItems;
  readonly events: ExportJobEvents;

  constructor(transport: Transport) {
    this.#transport = transport;
    this.items = new ExportJobItems(transport);
    this.events = new ExportJobEvents(transport);
  }

  /** Never retried after a 429 or 503: a second create answers EXPORT_ALREADY_IN_PROGRESS. */
  create(body: Body<'createExportJobV2'>, options?: RequestOptions): Promise<Data<'createExportJobV2'>> {
    return data(this.#transport, 'createExportJobV2', { body }, options);
  }

  get(jobId: string, options?: RequestOptions): Promise<Data<'getExportJobByIdV2'>> {
    return data(this.#transport, 'getExportJobByIdV2', { path: { jobId } }, options);
  }

  list(
    query?: ListQuery<'getExportJobsListV2'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'getExportJobsListV2'>> {
    return list(this.#transport, 'getExportJobsListV2', {}, query, options);
  }
}

export class ExportJobItems {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  list(
    jobId: string,
    query?: ListQuery<'getExportJobItemsV2'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'getExportJobItemsV2'>> {
    return list(this.#transport, 'getExportJobItemsV2', { path: { jobId } }, query, options);
  }

  /** Records each item's outcome. */
  update(
    jobId: string,
    items: Body<'updateExportJobItemsV2'>,
    options?: RequestOptions,
  ): Promise<Data<'updateExportJobItemsV2'>> {
    return data(this.#transport, 'updateExportJobItemsV2', { path: { jobId }, body: items }, options);
  }
}

export class ExportJobEvents {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `started`, `completed`, `completed_with_errors` or `failed`: 202 and nothing else. */
  create(body: Body<'createExportJobEventV2'>, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'createExportJobEventV2', { body }, options);
  }
}
