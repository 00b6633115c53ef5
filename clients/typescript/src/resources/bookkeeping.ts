// Bookkeeping under /v1-beta: category groups, categories, the aggregated picker view, contra
// accounts and a company's preferences.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class BookkeepingCategoryGroups {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  create(
    body: Body<'createBookkeepingCategoryGroup'>,
    options?: RequestOptions,
  ): Promise<Data<'createBookkeepingCategoryGroup'>> {
    return data(this.#transport, 'createBookkeepingCategoryGroup', { body }, options);
  }

  get(groupId: string, options?: RequestOptions): Promise<Data<'getBookkeepingCategoryGroup'>> {
    return data(this.#transport, 'getBookkeepingCategoryGroup', { path: { groupId } }, options);
  }

  update(
    groupId: string,
    body: Body<'updateBookkeepingCategoryGroup'>,
    options?: RequestOptions,
  ): Promise<Data<'updateBookkeepingCategoryGroup'>> {
    return data(this.#transport, 'updateBookkeepingCategoryGroup', { path: { groupId }, body }, options);
  }

  delete(groupId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteBookkeepingCategoryGroup', { path: { groupId } }, options);
  }

  search(
    filter: Body<'searchBookkeepingCategoryGroups'>,
    query?: ListQuery<'searchBookkeepingCategoryGroups'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchBookkeepingCategoryGroups'>> {
    return list(this.#transport, 'searchBookkeepingCategoryGroups', { body: filter }, query, options);
  }

  /** Each group with its categories and each category's account: the picker's view. */
  searchAggregated(
    filter: Body<'searchAggregatedBookkeepingCategoryGroups'>,
    query?: ListQuery<'searchAggregatedBookkeepingCategoryGroups'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchAggregatedBookkeepingCategoryGroups'>> {
    return list(this.#transport, 'searchAggregatedBookkeepingCategoryGroups', { body: filter }, query, options);
  }
}

export class BookkeepingCategories {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  create(
    body: Body<'createBookkeepingCategory'>,
    options?: RequestOptions,
  ): Promise<Data<'createBookkeepingCategory'>> {
    return data(this.#transport, 'createBookkeepingCategory', { body }, options);
  }

  get(categoryId: string, options?: RequestOptions): Promise<Data<'getBookkeepingCategory'>> {
    return data(this.#transport, 'getBookkeepingCategory', { path: { categoryId } }, options);
  }

  update(
    categoryId: string,
    body: Body<'updateBookkeepingCategory'>,
    options?: RequestOptions,
  ): Promise<Data<'updateBookkeepingCategory'>> {
    return data(this.#transport, 'updateBookkeepingCategory', { path: { categoryId }, body }, options);
  }

  delete(categoryId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteBookkeepingCategory', { path: { categoryId } }, options);
  }

  search(
    filter: Body<'searchBookkeepingCategories'>,
    query?: ListQuery<'searchBookkeepingCategories'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchBookkeepingCategories'>> {
    return list(this.#transport, 'searchBookkeepingCategories', { body: filter }, query, options);
  }
}

export class ContraAccounts {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  create(body: Body<'createContraAccount'>, options?: RequestOptions): Promise<Data<'createContraAccount'>> {
    return data(this.#transport, 'createContraAccount', { body }, options);
  }

  get(contraAccountId: string, options?: RequestOptions): Promise<Data<'getContraAccount'>> {
    return data(this.#transport, 'getContraAccount', { path: { contraAccountId } }, options);
  }

  update(
    contraAccountId: string,
    body: Body<'updateContraAccount'>,
    options?: RequestOptions,
  ): Promise<Data<'updateContraAccount'>> {
    return data(this.#transport, 'updateContraAccount', { path: { contraAccountId }, body }, options);
  }

  delete(contraAccountId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteContraAccount', { path: { contraAccountId } }, options);
  }

  search(
    filter: Body<'searchContraAccounts'>,
    query?: ListQuery<'searchContraAccounts'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'searchContraAccounts'>> {
    return list(this.#transport, 'searchContraAccounts', { body: filter }, query, options);
  }
}

export class BookkeepingPreferences {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  get(companyId: string, options?: RequestOptions): Promise<Data<'getBookkeepingPreferences'>> {
    return data(this.#transport, 'getBookkeepingPreferences', { query: { companyId } }, options);
  }

  update(
    body: Body<'putBookkeepingPreferences'>,
    options?: RequestOptions,
  ): Promise<Data<'putBookkeepingPreferences'>> {
    return data(this.#transport, 'putBookkeepingPreferences', { body }, options);
  }
}
