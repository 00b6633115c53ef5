// Accounting entries (/v1-beta/accounting-entries): what an export job exports.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class AccountingEntries {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Never retried after a 429 or 503: the service does not replay entry creates. */
  create(body: Body<'createAccountingEntry'>, options?: RequestOptions): Promise<Data<'createAccountingEntry'>> {
    return data(this.#transport, 'createAccountingEntry', { body }, options);
  }

  get(accountingEntryId: string, options?: RequestOptions): Promise<Data<'getAccountingEntry'>> {
    return data(this.#transport, 'getAccountingEntry', { path: { accountingEntryId } }, options);
  }

  delete(accountingEntryId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteAccountingEntry', { path: { accountingEntryId } }, options);
  }

  search(
    filter: Body<'searchAccountingEntries'>,
    query?: ListQuery<'searchAccountingEntries'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchAccountingEntries'>> {
    return list(this.#transport, 'searchAccountingEntries', { body: filter }, query, options);
  }
}
