// The client: one object with the API's resources as properties (docs/decisions/client.md).
import { type Authorizer, clientCredentials, fixedBearer } from './credentials.ts';
import { AccountingEntries } from './resources/accounting-entries.ts';
import { Accounts, ChartOfAccounts } from './resources/accounts.ts';
import {
  BookkeepingCategories,
  BookkeepingCategoryGroups,
  BookkeepingPreferences,
  ContraAccounts,
} from './resources/bookkeeping.ts';
import { Events, EventTypes } from './resources/events.ts';
import { ExportJobs } from './resources/export-jobs.ts';
import { Subscriptions } from './resources/subscriptions.ts';
import { TaxCodes } from './resources/tax-codes.ts';
import type { OperationId } from './retries.ts';
import {
  type ApiResponse,
  type OperationArgs,
  type RequestOptions,
  type ResponseBody,
  Transport,
} from './transport.ts';

/** One of three credentials: an API key, a token of your own, or an OAuth client's id and secret. */
export type Credentials =
  | { apiKey: string; token?: never; clientId?: never; clientSecret?: never }
  | { token: string; apiKey?: never; clientId?: never; clientSecret?: never }
  | { clientId: string; clientSecret: string; scope?: string; apiKey?: never; token?: never };

export type LedgerhookOptions = Credentials & {
  /** Where the service answers, e.g. https://ledgerhook.example.com */
  baseUrl: string;
  /** Retries after 429 or 503 where a retry is safe (reads, and creates the service replays). Default 2. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to send with; the runtime's own by default. */
  fetch?: typeof fetch;
};

export class Ledgerhook {
  readonly accounts: Accounts;
  readonly chartOfAccounts: ChartOfAccounts;
  readonly taxCodes: TaxCodes;
  readonly accountingEntries: AccountingEntries;
  readonly exportJobs: ExportJobs;
  readonly bookkeepingCategoryGroups: BookkeepingCategoryGroups;
  readonly bookkeepingCategories: BookkeepingCategories;
  readonly contraAccounts: ContraAccounts;
  readonly bookkeepingPreferences: BookkeepingPreferences;
  readonly subscriptions: Subscriptions;
  readonly events: Events;
  readonly eventTypes: EventTypes;
  readonly #transport: Transport;

  constructor(options: LedgerhookOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    const transport = new Transport({
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      maxRetries: options.maxRetries ?? 2,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      headers: options.headers ?? {},
    });
    transport.authorize(authorizer(options, transport));
    this.#transport = transport;
    this.accounts = new Accounts(transport);
    this.chartOfAccounts = new ChartOfAccounts(transport);
    this.taxCodes = new TaxCodes(transport);
    this.accountingEntries = new AccountingEntries(transport);
    this.exportJobs = new ExportJobs(transport);
    this.bookkeepingCategoryGroups = new BookkeepingCategoryGroups(transport);
    this.bookkeepingCategories = new BookkeepingCategories(transport);
    this.contraAccounts = new ContraAccounts(transport);
    this.bookkeepingPreferences = new BookkeepingPreferences(transport);
    this.subscriptions = new Subscriptions(transport);
    this.events = new Events(transport);
    this.eventTypes = new EventTypes(transport);
  }

  /**
   * Any operation by its operationId, answered with its status, headers and request id beside the
   * body: for what the resource methods leave out (a create's 201 or 200, RateLimit headers).
   */
  request<K extends OperationId>(
    operationId: K,
    args: OperationArgs<K>,
    options?: RequestOptions,
  ): Promise<ApiResponse<ResponseBody<K>>> {
    return this.#transport.operation(operationId, args, options);
  }
}

function authorizer(options: LedgerhookOptions, transport: Transport): Authorizer {
  if (options.apiKey !== undefined) return fixedBearer(options.apiKey);
  if (options.token !== undefined) return fixedBearer(options.token);
  if (options.clientId !== undefined && options.clientSecret !== undefined) {
    return clientCredentials(options, (form) => transport.tokenRequest(form));
  }
  throw new TypeError('one of apiKey, token, or clientId and clientSecret is required');
}
