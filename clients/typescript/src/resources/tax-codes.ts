// Tax codes (/v0/tax-codes) and the tax carried by amounts (:calculate-tax-amounts).
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class TaxCodes {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  create(body: Body<'createTaxCode'>, options?: RequestOptions): Promise<Data<'createTaxCode'>> {
    return data(this.#transport, 'createTaxCode', { body }, options);
  }

  get(taxCodeId: string, options?: RequestOptions): Promise<Data<'getTaxCode'>> {
    return data(this.#transport, 'getTaxCode', { path: { taxCodeId } }, options);
  }

  update(taxCodeId: string, body: Body<'updateTaxCode'>, options?: RequestOptions): Promise<Data<'updateTaxCode'>> {
    return data(this.#transport, 'updateTaxCode', { path: { taxCodeId }, body }, options);
  }

  delete(taxCodeId: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteTaxCode', { path: { taxCodeId } }, options);
  }

  search(
    filter: Body<'getTaxCodes'>,
    query?: ListQuery<'getTaxCodes'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'getTaxCodes'>> {
    return list(this.#transport, 'getTaxCodes', { body: filter }, query, options);
  }

  /** Gross, net and tax of each amount under each tax code, in minor units. */
  calculate(body: Body<'calculateTax'>, options?: RequestOptions): Promise<Data<'calculateTax'>> {
    return data(this.#transport, 'calculateTax', { body }, options);
  }
}
