// Names for the generated operation types: what a caller writes and reads.
import type { Operations, WebhookPayloads } from './generated/openapi.ts';
import type { OperationId } from './retries.ts';
import type { ResponseBody } from './transport.ts';

export type { Operations, Problem, WebhookPayloads } from './generated/openapi.ts';
export type { OperationId } from './retries.ts';

/** The request body of operation K. */
export type Body<K extends OperationId> = Operations[K]['body'];
/** The `data` of operation K's answer. */
export type Data<K extends OperationId> = ResponseBody<K> extends { data: infer D } ? D : never;
/** The query of a list, but its cursor: that is `page()`'s argument. */
export type ListQuery<K extends OperationId> = Omit<NonNullable<Operations[K]['query']>, 'after' | 'before' | 'offset'>;

/** A notification's payload (and a feed item's): narrow it with `switch (payload.eventType)`. */
export type WebhookPayload = WebhookPayloads[keyof WebhookPayloads];
export type EventType = keyof WebhookPayloads;

export type Account = Data<'getAccountV4'>;
export type ChartOfAccountsAccount = Data<'getAccountV1'>;
export type TaxCode = Data<'getTaxCode'>;
export type AccountingEntry = Data<'getAccountingEntry'>;
export type ExportJob = Data<'getExportJobByIdV2'>;
export type ExportJobItem = Data<'getExportJobItemsV2'>[number];
export type BookkeepingCategoryGroup = Data<'getBookkeepingCategoryGroup'>;
export type BookkeepingCategory = Data<'getBookkeepingCategory'>;
export type ContraAccount = Data<'getContraAccount'>;
export type BookkeepingPreferences = Data<'getBookkeepingPreferences'>;
export type Subscription = Data<'getSubscriptionById'>;
export type SubscriptionMessage = Data<'getSubscriptionMessage'>;
