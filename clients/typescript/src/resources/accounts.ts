// Accounts: /v1-beta/accounts, and the same accounts as the stable /v1/chart-of-accounts with its batch create.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class Accounts {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** 201 with the new account; an identical create again answers the stored one. */
  create(body: Body<'createAccountV4'>, options?: RequestOptions): Promise<Data<'createAccountV4'>> {
    return data(this.#transport, 'createAccountV4', { body }, options);
  }

  get(accountId: string, options?: RequestOptions): Promise<Data<'getAccountV4'>> {
    return data(this.#transport, 'getAccountV4', { path: { accountId } }, options);
  }

  /** A full replacement of the account's fields. */
  update(accountId: string, body: Body<'updateAccountV4'>, options?: RequestOptions): Promise<Data<'updateAccountV4'>> {
    return data(this.#transport, 'updateAccountV4', { path: { accountId }, body }, options);
  }

  delete(accountId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteAccountV4', { path: { accountId } }, options);
  }

  /** Every account matching `filter`: `for await` over it, or `.page()` for one page with its pagination. */
  search(
    filter: Body<'searchAccountsV4'>,
    query?: ListQuery<'searchAccountsV4'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchAccountsV4'>> {
    return list(this.#transport, 'searchAccountsV4', { body: filter }, query, options);
  }
}

export class ChartOfAccounts {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  create(body: Body<'createAccountV1'>, options?: RequestOptions): Promise<Data<'createAccountV1'>> {
    return data(this.#transport, 'createAccountV1', { body }, options);
  }

  /** Up to 1,000 accounts of one company: each in `created`, or in `failed` with its reasons. Safe to send again. */
  batch(body: Body<'createAccountsBatchV1'>, options?: RequestOptions): Promise<Data<'createAccountsBatchV1'>> {
    return data(this.#transport, 'createAccountsBatchV1', { body }, options);
  }

  get(accountId: string, options?: RequestOptions): Promise<Data<'getAccountV1'>> {
    return data(this.#transport, 'getAccountV1', { path: { accountId } }, options);
  }

  update(accountId: string, body: Body<'updateAccountV1'>, options?: RequestOptions): Promise<Data<'updateAccountV1'>> {
    return data(this.#transport, 'updateAccountV1', { path: { accountId }, body }, options);
  }

  delete(accountId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteAccountV1', { path: { accountId } }, options);
  }

  search(
    filter: Body<'searchAccountsV1'>,
    query?: ListQuery<'searchAccountsV1'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchAccountsV1'>> {
    return list(this.#transport, 'searchAccountsV1', { body: filter }, query, options);
  }
}
