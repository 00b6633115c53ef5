// Generated from ledgerhook's OpenAPI document (version 0.2.0) by
// clients/typescript/scripts/generate.ts. Do not edit: run `npm run generate:client`;
// test/client/generated.test.ts fails while this file differs from what the service publishes.

/** The service version these types were generated from. */
export const SERVICE_VERSION = '0.2.0';

/** The reference's ExceptionInfo (type, message) with RFC 9457 problem details; served as application/problem+json to a client whose Accept header names it */
export type Problem = {
  /** Stable code to branch on */
  type: 'VALIDATION_FAILED' | 'MALFORMED_JSON' | 'MALFORMED_REQUEST' | 'INVALID_CURSOR' | 'TAX_CODE_NOT_FOUND' | 'UNKNOWN_ACCOUNT' | 'UNKNOWN_BOOKKEEPING_CATEGORY_GROUP' | 'UNKNOWN_ACCOUNTING_ENTRY' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'ROUTE_NOT_FOUND' | 'ACCOUNT_NOT_FOUND' | 'TAX_CODE_ID_NOT_FOUND' | 'ACCOUNTING_ENTRY_NOT_FOUND' | 'EXPORT_NOT_FOUND' | 'CONTRA_ACCOUNT_NOT_FOUND' | 'SUBSCRIPTION_NOT_FOUND' | 'MESSAGE_NOT_FOUND' | 'BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND' | 'BOOKKEEPING_CATEGORY_NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'ACCOUNT_ALREADY_EXISTS' | 'ACCOUNT_IN_USE' | 'CONTRA_ACCOUNT_ALREADY_EXISTS' | 'TAX_CODE_ALREADY_EXISTS' | 'TAX_CODE_IN_USE' | 'BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS' | 'BOOKKEEPING_CATEGORY_GROUP_IN_USE' | 'BOOKKEEPING_CATEGORY_ALREADY_EXISTS' | 'SUBSCRIPTION_DISABLED' | 'SUBSCRIPTION_LIMIT_REACHED' | 'EXPORT_ALREADY_IN_PROGRESS' | 'EVENT_CURSOR_EXPIRED' | 'PAYLOAD_TOO_LARGE' | 'TOO_MANY_ITEMS' | 'EXPORT_JOB_ITEMS_UPDATE_LIMIT' | 'UNSUPPORTED_MEDIA_TYPE' | 'REQUEST_TIMEOUT' | 'REQUEST_HEADERS_TOO_LARGE' | 'INVALID_EXPORT_JOB_STATUS_CHANGE' | 'EXPORT_JOB_STATUS_UNPROCESSABLE' | 'TOO_MANY_REQUESTS' | 'SERVICE_UNAVAILABLE' | 'STORAGE_FULL' | 'DATABASE_READ_ONLY' | 'INTERNAL_ERROR';
  /** What went wrong (the reference's ExceptionInfo); the same text as detail */
  message: string;
  title: string;
  status: number;
  detail: string;
  /** Also in the x-request-id response header */
  requestId: string;
  /** The broken fields, at most 100 */
  errors?: {
    /** JSON pointer to the field */
    path: string;
    message: string;
    in?: 'body' | 'query' | 'path';
  }[];
  [key: string]: unknown;
};

/** Every operation of the API by its operationId: parameters, body and success responses. */
export interface Operations {
  /** Calculate gross, net and tax amounts for a list of tax code ids and amounts (POST /v0/tax-codes:calculate-tax-amounts) */
  calculateTax: {
    path: never;
    query: never;
    body: {
      /** Tax code id (of a company the token lists) → the amounts to apply it to; at most 1000 amounts in all */
      amountsByTaxCodeId: Record<string, {
        /** The caller's identifier of the amount, echoed back */
        id: string;
        /** An amount of money in minor units */
        amount: {
          /** ISO 4217 currency code */
          currency: string;
          /** The amount in minor units of the currency (6580 is £65.80, 1500 is 1500 ISK) */
          minors: number;
        };
      }[]>;
    };
    responses: {
      /** The tax breakdown of every amount */
      200: {
        data: {
          /** Under each tax code id as sent, the breakdown of each of its amounts, in the order sent */
          taxes: Record<string, {
            /** The id of the amount, as sent */
            id: string;
            /** Gross, net and tax of the amount, in its currency */
            amountTaxBreakdown: {
              /** An amount of money in minor units */
              gross: {
                /** ISO 4217 currency code */
                currency: string;
                /** The amount in minor units of the currency (6580 is £65.80, 1500 is 1500 ISK) */
                minors: number;
              };
              /** An amount of money in minor units */
              net: {
                /** ISO 4217 currency code */
                currency: string;
                /** The amount in minor units of the currency (6580 is £65.80, 1500 is 1500 ISK) */
                minors: number;
              };
              /** An amount of money in minor units */
              tax: {
                /** ISO 4217 currency code */
                currency: string;
                /** The amount in minor units of the currency (6580 is £65.80, 1500 is 1500 ISK) */
                minors: number;
              };
            };
          }[]>;
        };
      };
    };
  };
  /** Create an accounting entry (POST /v1-beta/accounting-entries) */
  createAccountingEntry: {
    path: never;
    query: never;
    body: {
      /** Company the entry belongs to */
      companyId: string;
      /** An account of the same company */
      accountId: string;
      /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
      amount: string;
      /** ISO 4217 currency code */
      currency: string;
      /** Booking date */
      date: string;
      /** Free text */
      description?: string | null;
    };
    responses: {
      /** Accounting entry created */
      201: {
        /** An accounting entry: an amount booked on an account */
        data: {
          /** Identifier of the accounting entry */
          id: string;
          /** Company the entry belongs to */
          companyId: string;
          /** Account the entry is booked on */
          accountId: string;
          /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
          amount: string;
          /** ISO 4217 currency code */
          currency: string;
          /** Booking date */
          date: string;
          /** Free text */
          description: string | null;
          /** When the entry was created (UTC) */
          createdAt: string;
        };
      };
    };
  };
  /** Create up to 1,000 accounts of one company (POST /v1/chart-of-accounts/batch) */
  createAccountsBatchV1: {
    path: never;
    query: never;
    body: {
      /** The company every account of the batch is created in */
      companyId: string;
      /** 1 to 1000 accounts. Each is validated and created on its own: an invalid item is answered in failed, not as a 400 of the batch. */
      items: {
        archived: boolean;
        /** Non-empty unique identifier in the external system; may equal code */
        externalId: string;
        /** Name of the account; in a batch, not empty (NAME_EMPTY) */
        name: string;
        /** Account code or number */
        code?: string | null;
        /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
        taxCodeExternalId?: string | null;
        /** Free-form JSON for API users, at most 64 KiB */
        metadata?: Record<string, unknown> | null;
        /** Absent, or the companyId of the batch (another is a 400 of the whole batch) */
        companyId?: string;
      }[];
    };
    responses: {
      /** Each item created (or matched) or failed */
      201: {
        /** What became of each item of the batch */
        data: {
          /** The accounts of the valid items, in item order: new ones, and stored ones an item matched exactly (a replay) */
          created: {
            /** Identifier of the account in ledgerhook */
            id: string;
            /** Company the account belongs to */
            companyId: string;
            /** Unique identifier in the external system; may equal code */
            externalId: string;
            /** Name of the account */
            name: string;
            /** Whether the account is archived */
            archived: boolean;
            /** Account code or number in the external chart of accounts */
            code: string | null;
            /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
            taxCodeExternalId: string | null;
            /** Free-form JSON for API users, at most 64 KiB */
            metadata: Record<string, unknown> | null;
          }[];
          /** The other items, in item order */
          failed: {
            /** Why the item was not created; OTHER for any rule without a reason of its own */
            reasons: ('EXTERNAL_ID_ALREADY_EXISTS' | 'EXTERNAL_ID_TOO_LONG' | 'EXTERNAL_ID_EMPTY' | 'NAME_TOO_LONG' | 'NAME_EMPTY' | 'CODE_TOO_LONG' | 'OTHER')[];
            /** The item exactly as sent (it need not match the item schema) */
            request: unknown;
          }[];
        };
      };
    };
  };
  /** Create an account (POST /v1/chart-of-accounts) */
  createAccountV1: {
    path: never;
    query: never;
    body: {
      archived: boolean;
      /** Company the account belongs to */
      companyId: string;
      /** Non-empty unique identifier in the external system; may equal code */
      externalId: string;
      /** Name of the account */
      name: string;
      /** Account code or number */
      code?: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** The request matched an existing account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
      /** Account created */
      201: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Create an account (POST /v1-beta/accounts) */
  createAccountV4: {
    path: never;
    query: never;
    body: {
      archived: boolean;
      /** Company the account belongs to */
      companyId: string;
      /** Unique identifier in the external system */
      externalId: string;
      /** Name of the account */
      name: string;
      /** Account code or number */
      code?: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** The request matched an existing account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
      /** Account created */
      201: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Create a category (POST /v1-beta/bookkeeping-categories) */
  createBookkeepingCategory: {
    path: never;
    query: never;
    body: {
      /** Company the category belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId?: string | null;
      /** Name of the category */
      name: string;
      /** A category group of the same company (else 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP) */
      groupId: string;
      /** An account of the same company (else 400 UNKNOWN_ACCOUNT) */
      accountId: string;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** The request matched an existing category */
      200: {
        /** A bookkeeping category: what an expense is filed under */
        data: {
          /** Identifier of the category in ledgerhook */
          id: string;
          /** Company the category belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the category */
          name: string;
          /** The category group it belongs to */
          groupId: string;
          /** The account its expenses are booked to */
          accountId: string;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
      /** Category created */
      201: {
        /** A bookkeeping category: what an expense is filed under */
        data: {
          /** Identifier of the category in ledgerhook */
          id: string;
          /** Company the category belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the category */
          name: string;
          /** The category group it belongs to */
          groupId: string;
          /** The account its expenses are booked to */
          accountId: string;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Create a category group (POST /v1-beta/bookkeeping-category-groups) */
  createBookkeepingCategoryGroup: {
    path: never;
    query: never;
    body: {
      /** Company the group belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId?: string | null;
      /** Name of the group */
      name: string;
      /** What the group holds, for the app to classify it */
      type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** The request matched an existing group */
      200: {
        /** A bookkeeping category group */
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
      /** Group created */
      201: {
        /** A bookkeeping category group */
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Create a contra account (POST /v1-beta/contra-accounts) */
  createContraAccount: {
    path: never;
    query: never;
    body: {
      /** Company of the contra account */
      companyId: string;
      /** Identifier of the contra account in the ERP, when it has one; unique per company */
      externalId?: string | null;
      /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
      kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
      /** ISO 4217 code of an additional wallet currency; null for every other kind */
      currency?: string | null;
      /** An account of the same company */
      accountId: string;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** The request matched an existing contra account */
      200: {
        /** Where the money of an expense comes from, and the account it is booked against */
        data: {
          /** Identifier of the contra account */
          id: string;
          /** Company the contra account belongs to */
          companyId: string;
          /** Identifier of the contra account in the ERP, when it has one; unique per company */
          externalId: string | null;
          /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
          kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
          /** ISO 4217 code of an additional wallet currency; null for every other kind */
          currency: string | null;
          /** The account of the chart of accounts the money is booked against */
          accountId: string;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the contra account was created (UTC) */
          createdAt: string;
          /** When the contra account was last changed (UTC) */
          updatedAt: string;
        };
      };
      /** Contra account created */
      201: {
        /** Where the money of an expense comes from, and the account it is booked against */
        data: {
          /** Identifier of the contra account */
          id: string;
          /** Company the contra account belongs to */
          companyId: string;
          /** Identifier of the contra account in the ERP, when it has one; unique per company */
          externalId: string | null;
          /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
          kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
          /** ISO 4217 code of an additional wallet currency; null for every other kind */
          currency: string | null;
          /** The account of the chart of accounts the money is booked against */
          accountId: string;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the contra account was created (UTC) */
          createdAt: string;
          /** When the contra account was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Report progress of an export job (POST /v2/export-job-events) */
  createExportJobEventV2: {
    path: never;
    query: never;
    body: {
      /** The export job */
      jobId: string;
      /** started: pending → in_progress; completed and completed_with_errors end an in_progress job; failed ends a pending or in_progress one */
      event: 'started' | 'failed' | 'completed' | 'completed_with_errors';
      /** Stored with a failed event */
      failureReason?: string;
      /** Stored with a failed event */
      failureReasonType?: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user';
    };
    responses: {
      /** Status changed; no body */
      202: undefined;
    };
  };
  /** Create an export job (POST /v2/export-jobs) */
  createExportJobV2: {
    path: never;
    query: never;
    body: {
      /** The company to export */
      companyId: string;
      /** The user who started the export, stored as createdBy; absent or null: the token subject */
      employeeId?: string | null;
      /** Entries of the company to export, each once however often it is listed. Default: every entry of the company not yet in any export job item. */
      accountingEntryIds?: string[];
      /** Default true */
      isInteractive?: boolean | null;
      options?: {
        vendorBasedBookkeeping?: boolean | null;
      } | null;
    };
    responses: {
      /** Export job created */
      201: {
        /** An export job: a batch of accounting entries for an integration to transfer */
        data: {
          /** Identifier of the export job */
          id: string;
          /** Company the export job belongs to */
          companyId: string;
          /** When the job was created (UTC) */
          createdAt: string;
          /** The user who created it: the request's employeeId, else the token subject */
          createdBy: string | null;
          /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
          expiresIn: number;
          /** Accounting entries selected for export */
          numberOfItems: number;
          /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
          status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
          /** Whether a user (rather than the system) started it */
          isInteractive: boolean;
          /** Whether items include vendor and bookkeeping data */
          vendorBasedBookkeeping: boolean;
          /** Why the job failed */
          failureReason: string | null;
          /** Classification of the failure */
          failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
          /** Last change of the job or its items (UTC) */
          lastUpdatedAt: string;
          /** When it became in_progress */
          startedAt: string | null;
          /** When it reached completed, completed_with_errors or failed */
          completedAt: string | null;
          /** When it expired */
          expiredAt: string | null;
        };
      };
    };
  };
  /** Create a subscription (POST /v1/subscriptions) */
  createSubscription: {
    path: never;
    query: never;
    body: {
      /** INACTIVE subscriptions receive nothing. Default ACTIVE */
      status?: 'ACTIVE' | 'INACTIVE';
      /** Known event types; each needs the scopes GET /v1/event-types lists for it (else 403) */
      eventTypes: string[];
      /** The https URL notifications are POSTed to, at most 2048 characters */
      endpointUrl: string;
      /** Sent with every notification: at most 20; names are HTTP header tokens, not webhook-*, host, content-length, transfer-encoding, connection or another hop-by-hop header; authorization not with BASIC; values at most 1024 characters, no control characters */
      customHeaders?: Record<string, string>;
      /** How notifications authenticate to the endpoint: BASIC needs credentials, NONE takes none */
      endpointAuth?: {
        /** NONE (default) or BASIC */
        type?: 'NONE' | 'BASIC';
        /** Sent as HTTP Basic authorization with every notification; the password is never returned */
        credentials?: {
          username: string;
          password: string;
          /** Accepted and ignored: no type sends a token */
          token?: string;
        };
      };
      /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null removes it; omitted on PUT, it stays as it is */
      rateLimitPerSecond?: number | null;
    };
    responses: {
      /** Subscription created */
      200: {
        /** A webhook subscription */
        data: {
          /** Identifier of the subscription */
          id: string;
          /** ACTIVE or INACTIVE */
          status: 'ACTIVE' | 'INACTIVE';
          /** Why the service made it INACTIVE: ENDPOINT_FAILING, its endpoint failed every attempt for WEBHOOK_DISABLE_AFTER (fix it, PUT it ACTIVE, then :recover); CLIENT_REVOKED, its client was revoked (it stays INACTIVE). Null when its status is the one last sent */
          statusReason: 'ENDPOINT_FAILING' | 'CLIENT_REVOKED' | null;
          eventTypes: string[];
          endpointUrl: string;
          /** When the subscription was created (UTC) */
          createdAt: string;
          /** When it last changed (UTC) */
          updatedAt: string;
          /** How notifications authenticate to the endpoint (credentials are never returned) */
          endpointAuth: {
            /** NONE when notifications carry no authorization */
            type: 'NONE' | 'BASIC';
          };
          /** Headers sent with every notification */
          customHeaders: Record<string, string>;
          /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null when it has none */
          rateLimitPerSecond: number | null;
        };
        /** How notifications authenticate to the endpoint (credentials are never returned) */
        endpointAuth: {
          /** NONE when notifications carry no authorization */
          type: 'NONE' | 'BASIC';
        };
        /** As data.customHeaders */
        customHeaders: Record<string, string>;
      };
    };
  };
  /** Create a tax code (POST /v0/tax-codes) */
  createTaxCode: {
    path: never;
    query: never;
    body: {
      /** Company of the tax code; on update, the company it already belongs to */
      companyId: string;
      /** Name of the tax code */
      name: string;
      /** Identifier in the accounting system; unique per company */
      code?: string | null;
      /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
      rate: number;
      /** Classification of the tax code */
      type: 'inclusive' | 'exclusive' | 'reverse';
      /** Whether the tax code is archived */
      archived: boolean;
      /** Ingoing tax account */
      ingoingTaxAccount?: string | null;
      /** Outgoing tax account */
      outgoingTaxAccount?: string | null;
    };
    responses: {
      /** The same tax code was created before (a replay) */
      200: {
        /** A tax code of a company */
        data: {
          /** Identifier of the tax code in ledgerhook */
          id: string;
          /** Company the tax code belongs to */
          companyId: string;
          /** Name of the tax code */
          name: string;
          /** The accounting system's identifier of the tax code */
          code: string | null;
          /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
          rate: number;
          /** Classification of the tax code */
          type: 'inclusive' | 'exclusive' | 'reverse';
          /** Whether the tax code is archived */
          archived: boolean;
          /** Ingoing tax account, usually for reverse VAT */
          ingoingTaxAccount: string | null;
          /** Outgoing tax account, usually for reverse VAT */
          outgoingTaxAccount: string | null;
          /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
          accountingIntegrationSystem: string | null;
          /** When the tax code was created (UTC) */
          createdAt: string;
          /** When the tax code was last changed (UTC) */
          updatedAt: string;
        };
      };
      /** Tax code created */
      201: {
        /** A tax code of a company */
        data: {
          /** Identifier of the tax code in ledgerhook */
          id: string;
          /** Company the tax code belongs to */
          companyId: string;
          /** Name of the tax code */
          name: string;
          /** The accounting system's identifier of the tax code */
          code: string | null;
          /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
          rate: number;
          /** Classification of the tax code */
          type: 'inclusive' | 'exclusive' | 'reverse';
          /** Whether the tax code is archived */
          archived: boolean;
          /** Ingoing tax account, usually for reverse VAT */
          ingoingTaxAccount: string | null;
          /** Outgoing tax account, usually for reverse VAT */
          outgoingTaxAccount: string | null;
          /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
          accountingIntegrationSystem: string | null;
          /** When the tax code was created (UTC) */
          createdAt: string;
          /** When the tax code was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Delete an accounting entry (DELETE /v1-beta/accounting-entries/{accountingEntryId}) */
  deleteAccountingEntry: {
    path: {
      /** The accounting entry */
      accountingEntryId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete an account (DELETE /v1/chart-of-accounts/{accountId}) */
  deleteAccountV1: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete an account (DELETE /v1-beta/accounts/{accountId}) */
  deleteAccountV4: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete a category (DELETE /v1-beta/bookkeeping-categories/{categoryId}) */
  deleteBookkeepingCategory: {
    path: {
      /** The category */
      categoryId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete a category group (DELETE /v1-beta/bookkeeping-category-groups/{groupId}) */
  deleteBookkeepingCategoryGroup: {
    path: {
      /** The category group */
      groupId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete a contra account (DELETE /v1-beta/contra-accounts/{contraAccountId}) */
  deleteContraAccount: {
    path: {
      /** The contra account */
      contraAccountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete a subscription (DELETE /v1/subscriptions/{id}) */
  deleteSubscription: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Delete a tax code (DELETE /v0/tax-codes/{taxCodeId}) */
  deleteTaxCode: {
    path: {
      /** The tax code */
      taxCodeId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Deleted */
      204: undefined;
    };
  };
  /** Get an accounting entry (GET /v1-beta/accounting-entries/{accountingEntryId}) */
  getAccountingEntry: {
    path: {
      /** The accounting entry */
      accountingEntryId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One accounting entry */
      200: {
        /** An accounting entry: an amount booked on an account */
        data: {
          /** Identifier of the accounting entry */
          id: string;
          /** Company the entry belongs to */
          companyId: string;
          /** Account the entry is booked on */
          accountId: string;
          /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
          amount: string;
          /** ISO 4217 currency code */
          currency: string;
          /** Booking date */
          date: string;
          /** Free text */
          description: string | null;
          /** When the entry was created (UTC) */
          createdAt: string;
        };
      };
    };
  };
  /** Get an account (GET /v1/chart-of-accounts/{accountId}) */
  getAccountV1: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Get an account (GET /v1-beta/accounts/{accountId}) */
  getAccountV4: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Get a category (GET /v1-beta/bookkeeping-categories/{categoryId}) */
  getBookkeepingCategory: {
    path: {
      /** The category */
      categoryId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One category */
      200: {
        /** A bookkeeping category: what an expense is filed under */
        data: {
          /** Identifier of the category in ledgerhook */
          id: string;
          /** Company the category belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the category */
          name: string;
          /** The category group it belongs to */
          groupId: string;
          /** The account its expenses are booked to */
          accountId: string;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Get a category group (GET /v1-beta/bookkeeping-category-groups/{groupId}) */
  getBookkeepingCategoryGroup: {
    path: {
      /** The category group */
      groupId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One category group */
      200: {
        /** A bookkeeping category group */
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Get a company's bookkeeping preferences (GET /v1-beta/bookkeeping-preferences) */
  getBookkeepingPreferences: {
    path: never;
    query: {
      /** The company whose preferences to read */
      companyId: string;
    };
    body: undefined;
    responses: {
      /** A company's preferences */
      200: {
        /** A company's bookkeeping preferences */
        data: {
          /** The company the preferences are of */
          companyId: string;
          /** How the target system books expenses: JOURNAL as journal entries, ACCOUNTS_PAYABLE as supplier invoices, NONE not at all */
          bookkeepingMethod: 'NONE' | 'JOURNAL' | 'ACCOUNTS_PAYABLE';
          /** Whether expenses are exported as positive amounts (else as negative ones, money leaving the company) */
          exportExpensesAsPositiveAmounts: boolean;
          /** ONE_LINE: one line per expense; MULTI_LINE: the net amount, the tax and the contra account on lines of their own */
          exportFormat: 'ONE_LINE' | 'MULTI_LINE';
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the preferences were last stored (UTC); null while they are the defaults */
          updatedAt: string | null;
        };
      };
    };
  };
  /** Get a contra account (GET /v1-beta/contra-accounts/{contraAccountId}) */
  getContraAccount: {
    path: {
      /** The contra account */
      contraAccountId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One contra account */
      200: {
        /** Where the money of an expense comes from, and the account it is booked against */
        data: {
          /** Identifier of the contra account */
          id: string;
          /** Company the contra account belongs to */
          companyId: string;
          /** Identifier of the contra account in the ERP, when it has one; unique per company */
          externalId: string | null;
          /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
          kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
          /** ISO 4217 code of an additional wallet currency; null for every other kind */
          currency: string | null;
          /** The account of the chart of accounts the money is booked against */
          accountId: string;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the contra account was created (UTC) */
          createdAt: string;
          /** When the contra account was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Get an export job (GET /v2/export-jobs/{jobId}) */
  getExportJobByIdV2: {
    path: {
      /** The export job */
      jobId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One export job */
      200: {
        /** An export job: a batch of accounting entries for an integration to transfer */
        data: {
          /** Identifier of the export job */
          id: string;
          /** Company the export job belongs to */
          companyId: string;
          /** When the job was created (UTC) */
          createdAt: string;
          /** The user who created it: the request's employeeId, else the token subject */
          createdBy: string | null;
          /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
          expiresIn: number;
          /** Accounting entries selected for export */
          numberOfItems: number;
          /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
          status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
          /** Whether a user (rather than the system) started it */
          isInteractive: boolean;
          /** Whether items include vendor and bookkeeping data */
          vendorBasedBookkeeping: boolean;
          /** Why the job failed */
          failureReason: string | null;
          /** Classification of the failure */
          failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
          /** Last change of the job or its items (UTC) */
          lastUpdatedAt: string;
          /** When it became in_progress */
          startedAt: string | null;
          /** When it reached completed, completed_with_errors or failed */
          completedAt: string | null;
          /** When it expired */
          expiredAt: string | null;
        };
      };
    };
  };
  /** List the items of an export job (GET /v2/export-jobs/{jobId}/items) */
  getExportJobItemsV2: {
    path: {
      /** The export job */
      jobId: string;
    };
    query: {
      /** Only items in this status */
      status?: 'pending' | 'in_progress' | 'failed' | 'successful' | 'abandoned';
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('createdAt' | 'accountingEntryId')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** The export job */
          exportJobId: string;
          /** The accounting entry being exported */
          accountingEntryId: string;
          /** Export status of the entry */
          status: 'pending' | 'in_progress' | 'failed' | 'successful' | 'abandoned';
          /** When it was exported */
          exportedAt: string | null;
          /** Identifier in the accounting system */
          externalId: string | null;
          /** Address in the accounting system */
          externalUrl: string | null;
          failureReason: string | null;
          /** Classification of the failure */
          failureReasonType: 'receipt_upload_failure' | 'receipt_download_failure' | 'receipt_file_size_limit_exceeded' | 'receipt_conversion_failure' | 'unexpected_failure' | 'invalid_configuration' | 'missing_configuration' | 'accounting_system_authentication_failure' | 'accounting_system_rate_limit' | 'accounting_system_unreachable' | 'validation_failure' | 'accounting_system_validation_failure' | 'authorization_failure' | 'accounting_system_timeout' | null;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** List export jobs (GET /v2/export-jobs) */
  getExportJobsListV2: {
    path: never;
    query: {
      /** Only jobs of this company (one the token lists) */
      company_id?: string;
      /** Deprecated: use statuses. Only jobs in this status, or in any of statuses when both are given */
      status?: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Only jobs in any of these statuses */
      statuses?: ('pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors')[];
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('createdAt' | 'id')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the export job */
          id: string;
          /** Company the export job belongs to */
          companyId: string;
          /** When the job was created (UTC) */
          createdAt: string;
          /** The user who created it: the request's employeeId, else the token subject */
          createdBy: string | null;
          /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
          expiresIn: number;
          /** Accounting entries selected for export */
          numberOfItems: number;
          /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
          status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
          /** Whether a user (rather than the system) started it */
          isInteractive: boolean;
          /** Whether items include vendor and bookkeeping data */
          vendorBasedBookkeeping: boolean;
          /** Why the job failed */
          failureReason: string | null;
          /** Classification of the failure */
          failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
          /** Last change of the job or its items (UTC) */
          lastUpdatedAt: string;
          /** When it became in_progress */
          startedAt: string | null;
          /** When it reached completed, completed_with_errors or failed */
          completedAt: string | null;
          /** When it expired */
          expiredAt: string | null;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Get subscription activities (GET /v1/subscriptions/{id}/activities) */
  getSubscriptionActivities: {
    path: {
      /** The subscription */
      id: string;
    };
    query: {
      /** Only these operation types; repeat the parameter or separate with commas. All when absent */
      operation_types?: ('CREATE' | 'UPDATE' | 'DELETE' | 'DISABLE')[];
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('createdAt' | 'id')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** The activity */
          id: string;
          /** The subscription */
          subscriptionId: string;
          /** CREATE, UPDATE (a PUT or a secret rotation), DELETE, or DISABLE (the service stopped it) */
          operationType: 'CREATE' | 'UPDATE' | 'DELETE' | 'DISABLE';
          /** urn:ledgerhook:client:<client_id>, urn:ledgerhook:user:<sub>, urn:ledgerhook:operator or urn:ledgerhook:system */
          actorUrn: string;
          description: string;
          /** The fields that changed; never a secret */
          changes: {
            /** status, eventTypes, endpointUrl (user info, query and parameter values, and path segments that are not words shown as …), customHeaders (names only), endpointAuth (type and username), customHeaderValues or endpointAuthPassword (only that they changed) */
            field: string;
            /** The value before; null for a new subscription */
            before: unknown;
            /** The value after */
            after: unknown;
          }[];
          /** When it happened (UTC) */
          createdAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Get a subscription (GET /v1/subscriptions/{id}) */
  getSubscriptionById: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One subscription; endpointAuth and customHeaders also beside data */
      200: {
        /** A webhook subscription */
        data: {
          /** Identifier of the subscription */
          id: string;
          /** ACTIVE or INACTIVE */
          status: 'ACTIVE' | 'INACTIVE';
          /** Why the service made it INACTIVE: ENDPOINT_FAILING, its endpoint failed every attempt for WEBHOOK_DISABLE_AFTER (fix it, PUT it ACTIVE, then :recover); CLIENT_REVOKED, its client was revoked (it stays INACTIVE). Null when its status is the one last sent */
          statusReason: 'ENDPOINT_FAILING' | 'CLIENT_REVOKED' | null;
          eventTypes: string[];
          endpointUrl: string;
          /** When the subscription was created (UTC) */
          createdAt: string;
          /** When it last changed (UTC) */
          updatedAt: string;
          /** How notifications authenticate to the endpoint (credentials are never returned) */
          endpointAuth: {
            /** NONE when notifications carry no authorization */
            type: 'NONE' | 'BASIC';
          };
          /** Headers sent with every notification */
          customHeaders: Record<string, string>;
          /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null when it has none */
          rateLimitPerSecond: number | null;
        };
        /** How notifications authenticate to the endpoint (credentials are never returned) */
        endpointAuth: {
          /** NONE when notifications carry no authorization */
          type: 'NONE' | 'BASIC';
        };
        /** As data.customHeaders */
        customHeaders: Record<string, string>;
      };
    };
  };
  /** Read a subscription's delivery health (GET /v1/subscriptions/{id}/health) */
  getSubscriptionHealth: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        /** The subscription's delivery health */
        data: {
          /** The subscription */
          subscriptionId: string;
          /** The last attempt to its endpoint (UTC); null before the first */
          lastAttemptAt: string | null;
          /** The last attempt answered with a 2xx (UTC) */
          lastDeliveredAt: string | null;
          lastFailure: {
            /** When the last failed attempt started (UTC) */
            at: string;
            /** Its HTTP status; null when no response came */
            statusCode: number | null;
            /** Why no response came */
            error: string | null;
          } | null;
          /** Failed attempts since the last success */
          consecutiveFailures: number;
          /** The first of those failures (UTC); null while it delivers */
          failingSince: string | null;
          /** This hour and the 23 whole hours before it */
          last24Hours: {
            /** Messages delivered */
            delivered: number;
            /** Attempts that failed */
            failedAttempts: number;
            /** Messages that ended failed, every attempt spent */
            failed: number;
          };
          /** The most notifications per second its endpoint is sent (the subscription's rateLimitPerSecond): a backlog drains at this rate. Null without one */
          rateLimitPerSecond: number | null;
        };
      };
    };
  };
  /** Read a message sent to a subscription, with its payload (GET /v1/subscriptions/{id}/messages/{messageId}) */
  getSubscriptionMessage: {
    path: {
      /** The subscription */
      id: string;
      /** The message id: the webhook-id header of its notifications */
      messageId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        /** One event for one subscription, with what its notifications carry */
        data: {
          /** The message id: the webhook-id header of its notifications */
          id: string;
          /** The event this message carries */
          eventId: string;
          eventType: string;
          /** pending (attempts to come), delivered (a 2xx came) or failed (every attempt failed) */
          status: 'pending' | 'delivered' | 'failed';
          /** Attempts made so far, resends included */
          attempts: number;
          /** When the next attempt is due; null unless pending */
          nextAttemptAt: string | null;
          /** When the event was recorded (UTC) */
          createdAt: string;
          /** When a 2xx answer was recorded */
          deliveredAt: string | null;
          /** What the event says: the `payload` of every notification of it, and a feed item */
          payload: {
            /** The event's data: the schema GET /v1/event-types lists for its type */
            data: unknown;
            /** The event: the same for every subscription, and in the feed */
            eventId: string;
            eventType: string;
            /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
            previousAttributes?: Record<string, unknown>;
            /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
            sequence: number;
          };
        };
      };
    };
  };
  /** List subscriptions (GET /v1/subscriptions) */
  getSubscriptions: {
    path: never;
    query: {
      /** Only subscriptions in this status */
      status?: 'ACTIVE' | 'INACTIVE';
      /** Only subscriptions to any of these event types; repeat the parameter or separate with commas */
      event_types?: ('v1.export-job.created' | 'v1.export-job.started' | 'v1.export-job.completed' | 'v1.export-job.completed-with-errors' | 'v1.export-job.failed' | 'v1.export-job.expired' | 'v1.account.created' | 'v1.account.updated' | 'v1.account.deleted' | 'v1.tax-code.created' | 'v1.tax-code.updated' | 'v1.tax-code.deleted' | 'v1.accounting-entry.created' | 'v1.accounting-entry.deleted' | 'v1.bookkeeping-category-group.created' | 'v1.bookkeeping-category-group.updated' | 'v1.bookkeeping-category-group.deleted' | 'v1.bookkeeping-category.created' | 'v1.bookkeeping-category.updated' | 'v1.bookkeeping-category.deleted' | 'v1.contra-account.created' | 'v1.contra-account.updated' | 'v1.contra-account.deleted' | 'v1.bookkeeping-preferences.updated' | 'v1.subscription.disabled')[];
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('createdAt' | 'id')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the subscription */
          id: string;
          /** ACTIVE or INACTIVE */
          status: 'ACTIVE' | 'INACTIVE';
          /** Why the service made it INACTIVE: ENDPOINT_FAILING, its endpoint failed every attempt for WEBHOOK_DISABLE_AFTER (fix it, PUT it ACTIVE, then :recover); CLIENT_REVOKED, its client was revoked (it stays INACTIVE). Null when its status is the one last sent */
          statusReason: 'ENDPOINT_FAILING' | 'CLIENT_REVOKED' | null;
          eventTypes: string[];
          endpointUrl: string;
          /** When the subscription was created (UTC) */
          createdAt: string;
          /** When it last changed (UTC) */
          updatedAt: string;
          /** How notifications authenticate to the endpoint (credentials are never returned) */
          endpointAuth: {
            /** NONE when notifications carry no authorization */
            type: 'NONE' | 'BASIC';
          };
          /** Headers sent with every notification */
          customHeaders: Record<string, string>;
          /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null when it has none */
          rateLimitPerSecond: number | null;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Get the signing secret of a subscription (GET /v1/subscriptions/{id}/secret) */
  getSubscriptionSecret: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** The signing secret of a subscription */
      200: {
        data: {
          /** The current signing secret (Standard Webhooks): `whsec_` and base64 of 32 bytes */
          secretKey: string;
        };
      };
    };
  };
  /** Get a tax code (GET /v0/tax-codes/{taxCodeId}) */
  getTaxCode: {
    path: {
      /** The tax code */
      taxCodeId: string;
    };
    query: never;
    body: undefined;
    responses: {
      /** One tax code */
      200: {
        /** A tax code of a company */
        data: {
          /** Identifier of the tax code in ledgerhook */
          id: string;
          /** Company the tax code belongs to */
          companyId: string;
          /** Name of the tax code */
          name: string;
          /** The accounting system's identifier of the tax code */
          code: string | null;
          /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
          rate: number;
          /** Classification of the tax code */
          type: 'inclusive' | 'exclusive' | 'reverse';
          /** Whether the tax code is archived */
          archived: boolean;
          /** Ingoing tax account, usually for reverse VAT */
          ingoingTaxAccount: string | null;
          /** Outgoing tax account, usually for reverse VAT */
          outgoingTaxAccount: string | null;
          /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
          accountingIntegrationSystem: string | null;
          /** When the tax code was created (UTC) */
          createdAt: string;
          /** When the tax code was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Search tax codes (POST /v0/tax-codes:search) */
  getTaxCodes: {
    path: never;
    query: {
      /** The company whose tax codes to search; may be omitted when the token lists exactly one company */
      company_id?: string;
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'code' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** Archived or not; both when omitted */
      archived?: boolean | null;
      /** Exact code */
      code?: string | null;
      /** Any of these ids */
      taxCodeIds?: string[] | null;
      /** Classification of the tax code */
      type?: 'inclusive' | 'exclusive' | 'reverse' | null;
    } | undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the tax code in ledgerhook */
          id: string;
          /** Company the tax code belongs to */
          companyId: string;
          /** Name of the tax code */
          name: string;
          /** The accounting system's identifier of the tax code */
          code: string | null;
          /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
          rate: number;
          /** Classification of the tax code */
          type: 'inclusive' | 'exclusive' | 'reverse';
          /** Whether the tax code is archived */
          archived: boolean;
          /** Ingoing tax account, usually for reverse VAT */
          ingoingTaxAccount: string | null;
          /** Outgoing tax account, usually for reverse VAT */
          outgoingTaxAccount: string | null;
          /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
          accountingIntegrationSystem: string | null;
          /** When the tax code was created (UTC) */
          createdAt: string;
          /** When the tax code was last changed (UTC) */
          updatedAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** List a company's events (GET /v1/events) */
  listEvents: {
    path: never;
    query: {
      /** The company whose events to list; the token must list it */
      company_id: string;
      /** Only these types; repeat the parameter or separate with commas. Every type the token may read when absent */
      event_types?: ('v1.export-job.created' | 'v1.export-job.started' | 'v1.export-job.completed' | 'v1.export-job.completed-with-errors' | 'v1.export-job.failed' | 'v1.export-job.expired' | 'v1.account.created' | 'v1.account.updated' | 'v1.account.deleted' | 'v1.tax-code.created' | 'v1.tax-code.updated' | 'v1.tax-code.deleted' | 'v1.accounting-entry.created' | 'v1.accounting-entry.deleted' | 'v1.bookkeeping-category-group.created' | 'v1.bookkeeping-category-group.updated' | 'v1.bookkeeping-category-group.deleted' | 'v1.bookkeeping-category.created' | 'v1.bookkeeping-category.updated' | 'v1.bookkeeping-category.deleted' | 'v1.contra-account.created' | 'v1.contra-account.updated' | 'v1.contra-account.deleted' | 'v1.bookkeeping-preferences.updated')[];
      /** Only events recorded at or after this time; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59 */
      created_after?: string;
      /** Only events recorded before this time; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59 */
      created_before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Page size */
      limit?: number;
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** What the event says: the `payload` of every notification of it, and a feed item */
          payload: {
            /** The event's data: the schema GET /v1/event-types lists for its type */
            data: unknown;
            /** The event: the same for every subscription, and in the feed */
            eventId: string;
            eventType: string;
            /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
            previousAttributes?: Record<string, unknown>;
            /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
            sequence: number;
          };
          /** When the event was recorded (UTC) */
          createdAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** List the event types webhooks can carry (GET /v1/event-types) */
  listEventTypes: {
    path: never;
    query: never;
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          eventType: string;
          version: string;
          description: string;
          /** Scopes a credential needs to subscribe to it and to manage such a subscription */
          scopes: string[];
          /** The scope that reads its messages and their payloads; null for an operational event, which needs none */
          readScope: string | null;
          /** JSON schema of the event data */
          dataSchema: unknown;
          /** An example of the JSON body a notification of this type sends: `{ "payload": { … } }` */
          example: unknown;
        }[];
      };
    };
  };
  /** List the delivery attempts of a message (GET /v1/subscriptions/{id}/messages/{messageId}/attempts) */
  listMessageAttempts: {
    path: {
      /** The subscription */
      id: string;
      /** The message id: the webhook-id header of its notifications */
      messageId: string;
    };
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: 'attempt'[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** 1 for the first; numbering goes on across resends */
          attempt: number;
          /** When the request started (UTC) */
          startedAt: string;
          /** Connect, send and response, in milliseconds */
          durationMs: number;
          /** The HTTP status; null when no response came */
          statusCode: number | null;
          /** Why no response came: timeout, refused connection, TLS, address… */
          error: string | null;
          /** The first 4 KiB of the response body */
          responseBody: string | null;
          /** The wait a 429 or 503 answer asked for with Retry-After, capped at WEBHOOK_RETRY_SCHEDULE's longest wait: the next attempt came no sooner. Null when it asked for none */
          retryAfterMs: number | null;
          /** A 2xx within WEBHOOK_TIMEOUT_MS */
          succeeded: boolean;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** List the messages sent to a subscription (GET /v1/subscriptions/{id}/messages) */
  listSubscriptionMessages: {
    path: {
      /** The subscription */
      id: string;
    };
    query: {
      /** Only messages in this status */
      status?: 'pending' | 'delivered' | 'failed';
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: 'createdAt'[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: undefined;
    responses: {
      /** Default Response */
      200: {
        data: {
          /** The message id: the webhook-id header of its notifications */
          id: string;
          /** The event this message carries */
          eventId: string;
          eventType: string;
          /** pending (attempts to come), delivered (a 2xx came) or failed (every attempt failed) */
          status: 'pending' | 'delivered' | 'failed';
          /** Attempts made so far, resends included */
          attempts: number;
          /** When the next attempt is due; null unless pending */
          nextAttemptAt: string | null;
          /** When the event was recorded (UTC) */
          createdAt: string;
          /** When a 2xx answer was recorded */
          deliveredAt: string | null;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Store a company's bookkeeping preferences (PUT /v1-beta/bookkeeping-preferences) */
  putBookkeepingPreferences: {
    path: never;
    query: never;
    body: {
      /** The company the preferences are of */
      companyId: string;
      /** How the target system books expenses: JOURNAL as journal entries, ACCOUNTS_PAYABLE as supplier invoices, NONE not at all */
      bookkeepingMethod: 'NONE' | 'JOURNAL' | 'ACCOUNTS_PAYABLE';
      /** Whether expenses are exported as positive amounts (else as negative ones, money leaving the company) */
      exportExpensesAsPositiveAmounts: boolean;
      /** ONE_LINE: one line per expense; MULTI_LINE: the net amount, the tax and the contra account on lines of their own */
      exportFormat: 'ONE_LINE' | 'MULTI_LINE';
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** A company's preferences */
      200: {
        /** A company's bookkeeping preferences */
        data: {
          /** The company the preferences are of */
          companyId: string;
          /** How the target system books expenses: JOURNAL as journal entries, ACCOUNTS_PAYABLE as supplier invoices, NONE not at all */
          bookkeepingMethod: 'NONE' | 'JOURNAL' | 'ACCOUNTS_PAYABLE';
          /** Whether expenses are exported as positive amounts (else as negative ones, money leaving the company) */
          exportExpensesAsPositiveAmounts: boolean;
          /** ONE_LINE: one line per expense; MULTI_LINE: the net amount, the tax and the contra account on lines of their own */
          exportFormat: 'ONE_LINE' | 'MULTI_LINE';
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the preferences were last stored (UTC); null while they are the defaults */
          updatedAt: string | null;
        };
      };
    };
  };
  /** Send failed messages again (POST /v1/subscriptions/{id}:recover) */
  recoverSubscriptionMessages: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: {
      /** Messages created at or after this time; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59 */
      since: string;
      /** Messages created before this time; now by default; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59 */
      until?: string;
    };
    responses: {
      /** Accepted */
      202: {
        /** A recovery of failed messages */
        data: {
          /** The recovery */
          id: string;
          /** The subscription */
          subscriptionId: string;
          /** The window starts here (UTC) */
          since: string;
          /** The window ends before this (UTC); at most the time of the request */
          until: string;
          /** Failed messages in the window when it was asked for; each is queued again once */
          messages: number;
          /** When it was asked for (UTC) */
          createdAt: string;
        };
      };
    };
  };
  /** Send a message again (POST /v1/subscriptions/{id}/messages/{messageId}:resend) */
  resendMessage: {
    path: {
      /** The subscription */
      id: string;
      /** The message id: the webhook-id header of its notifications */
      messageId: string;
    };
    query: never;
    body: Record<string, never> | undefined;
    responses: {
      /** Queued */
      202: {
        /** One event for one subscription */
        data: {
          /** The message id: the webhook-id header of its notifications */
          id: string;
          /** The event this message carries */
          eventId: string;
          eventType: string;
          /** pending (attempts to come), delivered (a 2xx came) or failed (every attempt failed) */
          status: 'pending' | 'delivered' | 'failed';
          /** Attempts made so far, resends included */
          attempts: number;
          /** When the next attempt is due; null unless pending */
          nextAttemptAt: string | null;
          /** When the event was recorded (UTC) */
          createdAt: string;
          /** When a 2xx answer was recorded */
          deliveredAt: string | null;
        };
      };
    };
  };
  /** Rotate the signing secret of a subscription (POST /v1/subscriptions/{id}/secret:rotate) */
  rotateSubscriptionSecret: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: Record<string, never> | undefined;
    responses: {
      /** The new secret */
      200: {
        data: {
          /** The current signing secret (Standard Webhooks): `whsec_` and base64 of 32 bytes */
          secretKey: string;
        };
      };
    };
  };
  /** Search accounting entries (POST /v1-beta/accounting-entries:search) */
  searchAccountingEntries: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('createdAt' | 'date' | 'amount' | 'id')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose entries to search */
      companyId: string;
      /** Any of these entry ids */
      ids?: string[] | null;
      /** Entries of any of these accounts */
      accountIds?: string[] | null;
      /** Entries dated on or after this day */
      dateFrom?: string | null;
      /** Entries dated on or before this day */
      dateTo?: string | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the accounting entry */
          id: string;
          /** Company the entry belongs to */
          companyId: string;
          /** Account the entry is booked on */
          accountId: string;
          /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
          amount: string;
          /** ISO 4217 currency code */
          currency: string;
          /** Booking date */
          date: string;
          /** Free text */
          description: string | null;
          /** When the entry was created (UTC) */
          createdAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search accounts (POST /v1/chart-of-accounts:search) */
  searchAccountsV1: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'code' | 'externalId' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose accounts to search */
      companyId: string;
      /** Any of these ids (a null entry matches no account) */
      ids?: (string | null)[] | null;
      /** Case-insensitive substring of the name */
      name?: string | null;
      /**
       * Exact code; use codes
       * @deprecated
       */
      code?: string | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Archived or not */
      archived?: boolean | null;
      /** Leave out the accounts that contra accounts use */
      excludeIfAssignedToContraAccount?: boolean;
      /** Leave out the accounts bookkeeping categories book to */
      excludeIfAssignedToCategory?: boolean;
      codes?: (string | null)[] | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** The accounting system of the integration that created the account */
          accountingSystem?: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search accounts (POST /v1-beta/accounts:search) */
  searchAccountsV4: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'code' | 'externalId' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose accounts to search */
      companyId: string;
      /** Any of these ids (a null entry matches no account) */
      ids?: (string | null)[] | null;
      /** Case-insensitive substring of the name */
      name?: string | null;
      /** Exact code */
      code?: string | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Archived or not */
      archived?: boolean | null;
      /** Leave out the accounts that contra accounts use */
      excludeIfAssignedToContraAccount?: boolean;
      /** Leave out the accounts bookkeeping categories book to */
      excludeIfAssignedToCategory?: boolean;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** The accounting system of the integration that created the account */
          accountingSystem?: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search category groups with their categories and accounts (POST /v1-beta/aggregated-bookkeeping-category-groups:search) */
  searchAggregatedBookkeepingCategoryGroups: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'type' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose groups to search */
      companyId: string;
      /** Any of these group ids */
      ids?: string[] | null;
      /** Any of these types */
      types?: ('ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY')[] | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Archived or not; both when omitted */
      archived?: boolean | null;
      /** Only categories with this archived flag; all when omitted */
      categoryArchived?: boolean | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
          /** The group's first 100 categories (those with the archived flag categoryArchived, when given), by name then id */
          categories: {
            /** The category */
            id: string;
            /** Identifier in the external system, unique per company; null when the record has none */
            externalId: string | null;
            /** Name of the category */
            name: string;
            /** Whether it is archived */
            archived: boolean;
            /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
            taxCodeExternalId: string | null;
            /** The account the category books to */
            account: {
              /** The account */
              id: string;
              /** Account code or number */
              code: string | null;
              /** Name of the account */
              name: string;
              /** Whether it is archived */
              archived: boolean;
            };
          }[];
          /** Whether the group has more categories than these 100. Always present in answers. The rest: POST /v1-beta/bookkeeping-categories:search?offset=100 with groupIds [the group's id] and archived as categoryArchived, whose default order (name, then id) is this one; then on by its endCursor. */
          hasMoreCategories?: boolean;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search categories (POST /v1-beta/bookkeeping-categories:search) */
  searchBookkeepingCategories: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose categories to search */
      companyId: string;
      /** Any of these category ids */
      ids?: string[] | null;
      /** In any of these groups */
      groupIds?: string[] | null;
      /** Booked to any of these accounts */
      accountIds?: string[] | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Archived or not; both when omitted */
      archived?: boolean | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the category in ledgerhook */
          id: string;
          /** Company the category belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the category */
          name: string;
          /** The category group it belongs to */
          groupId: string;
          /** The account its expenses are booked to */
          accountId: string;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search category groups (POST /v1-beta/bookkeeping-category-groups:search) */
  searchBookkeepingCategoryGroups: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('name' | 'type' | 'id' | 'createdAt' | 'updatedAt')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose groups to search */
      companyId: string;
      /** Any of these group ids */
      ids?: string[] | null;
      /** Any of these types */
      types?: ('ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY')[] | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Archived or not; both when omitted */
      archived?: boolean | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Search contra accounts (POST /v1-beta/contra-accounts:search) */
  searchContraAccounts: {
    path: never;
    query: {
      /** Cursor: the rows strictly before it. Not with after or offset. */
      before?: string;
      /** Cursor: the rows strictly after it. Not with before or offset. */
      after?: string;
      /** Rows to skip, at most 2^53 - 1. Not with before or after. */
      offset?: number;
      /** Page size */
      limit?: number;
      /** Keys to sort by; repeat the parameter or separate with commas. `id` ASC always breaks ties. */
      sorting_keys?: ('kind' | 'currency' | 'createdAt' | 'updatedAt' | 'id')[];
      /** One order per sorting key; default ASC */
      sorting_order?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
    };
    body: {
      /** The company whose contra accounts to search */
      companyId: string;
      /** Any of these contra account ids */
      ids?: string[] | null;
      /** Exact externalId */
      externalId?: string | null;
      /** Any of these kinds */
      kinds?: ('WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT')[] | null;
      /** Any of these currencies */
      currencies?: string[] | null;
      /** Contra accounts using any of these accounts */
      accountIds?: string[] | null;
    };
    responses: {
      /** Default Response */
      200: {
        data: {
          /** Identifier of the contra account */
          id: string;
          /** Company the contra account belongs to */
          companyId: string;
          /** Identifier of the contra account in the ERP, when it has one; unique per company */
          externalId: string | null;
          /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
          kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
          /** ISO 4217 code of an additional wallet currency; null for every other kind */
          currency: string | null;
          /** The account of the chart of accounts the money is booked against */
          accountId: string;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the contra account was created (UTC) */
          createdAt: string;
          /** When the contra account was last changed (UTC) */
          updatedAt: string;
        }[];
        /** Where this page lies in the whole result */
        pagination: {
          currentRequestPagination: {
            parameters: Record<string, string[]>;
            after?: string;
            before?: string;
            limit?: number;
            offset?: number;
            sortingKeys?: string[];
            sortingOrder?: ('ASC' | 'ASC_NULLS_FIRST' | 'ASC_NULLS_LAST' | 'DESC' | 'DESC_NULLS_FIRST' | 'DESC_NULLS_LAST')[];
          };
          hasNextPage: boolean;
          hasPreviousPage: boolean;
          /** Cursor of the first row; absent on an empty page */
          startCursor?: string;
          /** Cursor of the last row; absent on an empty page */
          endCursor?: string;
          /** Rows matching the filters, on every page */
          total?: number;
        };
      };
    };
  };
  /** Send a test event to a subscription (POST /v1/subscriptions/{id}:test) */
  sendTestEvent: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: {
      /** One of the subscription's event types */
      eventType: string;
    };
    responses: {
      /** Queued */
      202: {
        /** One event for one subscription */
        data: {
          /** The message id: the webhook-id header of its notifications */
          id: string;
          /** The event this message carries */
          eventId: string;
          eventType: string;
          /** pending (attempts to come), delivered (a 2xx came) or failed (every attempt failed) */
          status: 'pending' | 'delivered' | 'failed';
          /** Attempts made so far, resends included */
          attempts: number;
          /** When the next attempt is due; null unless pending */
          nextAttemptAt: string | null;
          /** When the event was recorded (UTC) */
          createdAt: string;
          /** When a 2xx answer was recorded */
          deliveredAt: string | null;
        };
      };
    };
  };
  /** Update an account (PUT /v1/chart-of-accounts/{accountId}) */
  updateAccountV1: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: {
      archived: boolean;
      /** Name of the account */
      name: string;
      /** Account code or number */
      code?: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** One account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Update an account (PUT /v1-beta/accounts/{accountId}) */
  updateAccountV4: {
    path: {
      /** The account */
      accountId: string;
    };
    query: never;
    body: {
      archived: boolean;
      /** Name of the account */
      name: string;
      /** Account code or number */
      code?: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** One account */
      200: {
        /** An account of a company chart of accounts */
        data: {
          /** Identifier of the account in ledgerhook */
          id: string;
          /** Company the account belongs to */
          companyId: string;
          /** Unique identifier in the external system; may equal code */
          externalId: string;
          /** Name of the account */
          name: string;
          /** Whether the account is archived */
          archived: boolean;
          /** Account code or number in the external chart of accounts */
          code: string | null;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
        };
      };
    };
  };
  /** Update a category (PUT /v1-beta/bookkeeping-categories/{categoryId}) */
  updateBookkeepingCategory: {
    path: {
      /** The category */
      categoryId: string;
    };
    query: never;
    body: {
      /** Name of the category */
      name: string;
      /** A category group of the same company (else 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP) */
      groupId: string;
      /** An account of the same company (else 400 UNKNOWN_ACCOUNT) */
      accountId: string;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId?: string | null;
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** One category */
      200: {
        /** A bookkeeping category: what an expense is filed under */
        data: {
          /** Identifier of the category in ledgerhook */
          id: string;
          /** Company the category belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the category */
          name: string;
          /** The category group it belongs to */
          groupId: string;
          /** The account its expenses are booked to */
          accountId: string;
          /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
          taxCodeExternalId: string | null;
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Update a category group (PUT /v1-beta/bookkeeping-category-groups/{groupId}) */
  updateBookkeepingCategoryGroup: {
    path: {
      /** The category group */
      groupId: string;
    };
    query: never;
    body: {
      /** Name of the group */
      name: string;
      /** What the group holds, for the app to classify it */
      type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** One category group */
      200: {
        /** A bookkeeping category group */
        data: {
          /** Identifier of the category group in ledgerhook */
          id: string;
          /** Company the group belongs to */
          companyId: string;
          /** Identifier in the external system, unique per company; null when the record has none */
          externalId: string | null;
          /** Name of the group */
          name: string;
          /** What the group holds, for the app to classify it */
          type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
          /** Whether it is archived */
          archived: boolean;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When it was created (UTC) */
          createdAt: string;
          /** When it was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Update a contra account (PUT /v1-beta/contra-accounts/{contraAccountId}) */
  updateContraAccount: {
    path: {
      /** The contra account */
      contraAccountId: string;
    };
    query: never;
    body: {
      /** An account of the same company */
      accountId: string;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata?: Record<string, unknown> | null;
    };
    responses: {
      /** One contra account */
      200: {
        /** Where the money of an expense comes from, and the account it is booked against */
        data: {
          /** Identifier of the contra account */
          id: string;
          /** Company the contra account belongs to */
          companyId: string;
          /** Identifier of the contra account in the ERP, when it has one; unique per company */
          externalId: string | null;
          /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
          kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
          /** ISO 4217 code of an additional wallet currency; null for every other kind */
          currency: string | null;
          /** The account of the chart of accounts the money is booked against */
          accountId: string;
          /** Free-form JSON for API users, at most 64 KiB */
          metadata: Record<string, unknown> | null;
          /** When the contra account was created (UTC) */
          createdAt: string;
          /** When the contra account was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
  /** Update items of an export job (PUT /v2/export-jobs/{jobId}/items) */
  updateExportJobItemsV2: {
    path: {
      /** The export job */
      jobId: string;
    };
    query: never;
    body: {
      /** An entry of the job */
      accountingEntryId: string;
      /** New status */
      status: 'pending' | 'in_progress' | 'failed' | 'successful' | 'abandoned';
      /** When it was exported; RFC 3339, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, zone offset at most 15:59 */
      exportedAt?: string;
      externalId?: string;
      externalUrl?: string;
      failureReason?: string;
      /** Classification of the failure */
      failureReasonType?: 'receipt_upload_failure' | 'receipt_download_failure' | 'receipt_file_size_limit_exceeded' | 'receipt_conversion_failure' | 'unexpected_failure' | 'invalid_configuration' | 'missing_configuration' | 'accounting_system_authentication_failure' | 'accounting_system_rate_limit' | 'accounting_system_unreachable' | 'validation_failure' | 'accounting_system_validation_failure' | 'authorization_failure' | 'accounting_system_timeout';
    }[];
    responses: {
      /** Default Response */
      200: {
        /** The items as updated */
        data: {
          /** The export job */
          exportJobId: string;
          /** The accounting entry being exported */
          accountingEntryId: string;
          /** Export status of the entry */
          status: 'pending' | 'in_progress' | 'failed' | 'successful' | 'abandoned';
          /** When it was exported */
          exportedAt: string | null;
          /** Identifier in the accounting system */
          externalId: string | null;
          /** Address in the accounting system */
          externalUrl: string | null;
          failureReason: string | null;
          /** Classification of the failure */
          failureReasonType: 'receipt_upload_failure' | 'receipt_download_failure' | 'receipt_file_size_limit_exceeded' | 'receipt_conversion_failure' | 'unexpected_failure' | 'invalid_configuration' | 'missing_configuration' | 'accounting_system_authentication_failure' | 'accounting_system_rate_limit' | 'accounting_system_unreachable' | 'validation_failure' | 'accounting_system_validation_failure' | 'authorization_failure' | 'accounting_system_timeout' | null;
        }[];
        /** Updates that named no item of the job */
        errors: {
          accountingEntryId: string;
          message: string;
          type: 'ACCOUNTING_ENTRY_DOES_NOT_EXIST';
        }[];
      };
    };
  };
  /** Update a subscription (PUT /v1/subscriptions/{id}) */
  updateSubscription: {
    path: {
      /** The subscription */
      id: string;
    };
    query: never;
    body: {
      /** INACTIVE subscriptions receive nothing. Default ACTIVE */
      status?: 'ACTIVE' | 'INACTIVE';
      /** Known event types; each needs the scopes GET /v1/event-types lists for it (else 403) */
      eventTypes: string[];
      /** The https URL notifications are POSTed to, at most 2048 characters */
      endpointUrl: string;
      /** Sent with every notification: at most 20; names are HTTP header tokens, not webhook-*, host, content-length, transfer-encoding, connection or another hop-by-hop header; authorization not with BASIC; values at most 1024 characters, no control characters */
      customHeaders?: Record<string, string>;
      /** How notifications authenticate to the endpoint: BASIC needs credentials, NONE takes none */
      endpointAuth?: {
        /** NONE (default) or BASIC */
        type?: 'NONE' | 'BASIC';
        /** Sent as HTTP Basic authorization with every notification; the password is never returned */
        credentials?: {
          username: string;
          password: string;
          /** Accepted and ignored: no type sends a token */
          token?: string;
        };
      };
      /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null removes it; omitted on PUT, it stays as it is */
      rateLimitPerSecond?: number | null;
    };
    responses: {
      /** Subscription updated */
      200: {
        /** A webhook subscription */
        data: {
          /** Identifier of the subscription */
          id: string;
          /** ACTIVE or INACTIVE */
          status: 'ACTIVE' | 'INACTIVE';
          /** Why the service made it INACTIVE: ENDPOINT_FAILING, its endpoint failed every attempt for WEBHOOK_DISABLE_AFTER (fix it, PUT it ACTIVE, then :recover); CLIENT_REVOKED, its client was revoked (it stays INACTIVE). Null when its status is the one last sent */
          statusReason: 'ENDPOINT_FAILING' | 'CLIENT_REVOKED' | null;
          eventTypes: string[];
          endpointUrl: string;
          /** When the subscription was created (UTC) */
          createdAt: string;
          /** When it last changed (UTC) */
          updatedAt: string;
          /** How notifications authenticate to the endpoint (credentials are never returned) */
          endpointAuth: {
            /** NONE when notifications carry no authorization */
            type: 'NONE' | 'BASIC';
          };
          /** Headers sent with every notification */
          customHeaders: Record<string, string>;
          /** Ours, beside the reference's fields: the most notifications per second its endpoint is sent, by all the workers together (1 to 1000); a backlog drains at that rate. Null when it has none */
          rateLimitPerSecond: number | null;
        };
        /** How notifications authenticate to the endpoint (credentials are never returned) */
        endpointAuth: {
          /** NONE when notifications carry no authorization */
          type: 'NONE' | 'BASIC';
        };
        /** As data.customHeaders */
        customHeaders: Record<string, string>;
      };
    };
  };
  /** Update a tax code (PUT /v0/tax-codes/{taxCodeId}) */
  updateTaxCode: {
    path: {
      /** The tax code */
      taxCodeId: string;
    };
    query: never;
    body: {
      /** Company of the tax code; on update, the company it already belongs to */
      companyId: string;
      /** Name of the tax code */
      name: string;
      /** Identifier in the accounting system; unique per company */
      code?: string | null;
      /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
      rate: number;
      /** Classification of the tax code */
      type: 'inclusive' | 'exclusive' | 'reverse';
      /** Whether the tax code is archived */
      archived: boolean;
      /** Ingoing tax account */
      ingoingTaxAccount?: string | null;
      /** Outgoing tax account */
      outgoingTaxAccount?: string | null;
    };
    responses: {
      /** One tax code */
      200: {
        /** A tax code of a company */
        data: {
          /** Identifier of the tax code in ledgerhook */
          id: string;
          /** Company the tax code belongs to */
          companyId: string;
          /** Name of the tax code */
          name: string;
          /** The accounting system's identifier of the tax code */
          code: string | null;
          /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
          rate: number;
          /** Classification of the tax code */
          type: 'inclusive' | 'exclusive' | 'reverse';
          /** Whether the tax code is archived */
          archived: boolean;
          /** Ingoing tax account, usually for reverse VAT */
          ingoingTaxAccount: string | null;
          /** Outgoing tax account, usually for reverse VAT */
          outgoingTaxAccount: string | null;
          /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
          accountingIntegrationSystem: string | null;
          /** When the tax code was created (UTC) */
          createdAt: string;
          /** When the tax code was last changed (UTC) */
          updatedAt: string;
        };
      };
    };
  };
}

/** Each operation's method, path template and success statuses, for the client to send it. */
export const OPERATIONS = {
  calculateTax: { method: 'POST', path: '/v0/tax-codes:calculate-tax-amounts', statuses: [200] },
  createAccountingEntry: { method: 'POST', path: '/v1-beta/accounting-entries', statuses: [201] },
  createAccountsBatchV1: { method: 'POST', path: '/v1/chart-of-accounts/batch', statuses: [201] },
  createAccountV1: { method: 'POST', path: '/v1/chart-of-accounts', statuses: [200, 201] },
  createAccountV4: { method: 'POST', path: '/v1-beta/accounts', statuses: [200, 201] },
  createBookkeepingCategory: { method: 'POST', path: '/v1-beta/bookkeeping-categories', statuses: [200, 201] },
  createBookkeepingCategoryGroup: { method: 'POST', path: '/v1-beta/bookkeeping-category-groups', statuses: [200, 201] },
  createContraAccount: { method: 'POST', path: '/v1-beta/contra-accounts', statuses: [200, 201] },
  createExportJobEventV2: { method: 'POST', path: '/v2/export-job-events', statuses: [202] },
  createExportJobV2: { method: 'POST', path: '/v2/export-jobs', statuses: [201] },
  createSubscription: { method: 'POST', path: '/v1/subscriptions', statuses: [200] },
  createTaxCode: { method: 'POST', path: '/v0/tax-codes', statuses: [200, 201] },
  deleteAccountingEntry: { method: 'DELETE', path: '/v1-beta/accounting-entries/{accountingEntryId}', statuses: [204] },
  deleteAccountV1: { method: 'DELETE', path: '/v1/chart-of-accounts/{accountId}', statuses: [204] },
  deleteAccountV4: { method: 'DELETE', path: '/v1-beta/accounts/{accountId}', statuses: [204] },
  deleteBookkeepingCategory: { method: 'DELETE', path: '/v1-beta/bookkeeping-categories/{categoryId}', statuses: [204] },
  deleteBookkeepingCategoryGroup: { method: 'DELETE', path: '/v1-beta/bookkeeping-category-groups/{groupId}', statuses: [204] },
  deleteContraAccount: { method: 'DELETE', path: '/v1-beta/contra-accounts/{contraAccountId}', statuses: [204] },
  deleteSubscription: { method: 'DELETE', path: '/v1/subscriptions/{id}', statuses: [204] },
  deleteTaxCode: { method: 'DELETE', path: '/v0/tax-codes/{taxCodeId}', statuses: [204] },
  getAccountingEntry: { method: 'GET', path: '/v1-beta/accounting-entries/{accountingEntryId}', statuses: [200] },
  getAccountV1: { method: 'GET', path: '/v1/chart-of-accounts/{accountId}', statuses: [200] },
  getAccountV4: { method: 'GET', path: '/v1-beta/accounts/{accountId}', statuses: [200] },
  getBookkeepingCategory: { method: 'GET', path: '/v1-beta/bookkeeping-categories/{categoryId}', statuses: [200] },
  getBookkeepingCategoryGroup: { method: 'GET', path: '/v1-beta/bookkeeping-category-groups/{groupId}', statuses: [200] },
  getBookkeepingPreferences: { method: 'GET', path: '/v1-beta/bookkeeping-preferences', statuses: [200] },
  getContraAccount: { method: 'GET', path: '/v1-beta/contra-accounts/{contraAccountId}', statuses: [200] },
  getExportJobByIdV2: { method: 'GET', path: '/v2/export-jobs/{jobId}', statuses: [200] },
  getExportJobItemsV2: { method: 'GET', path: '/v2/export-jobs/{jobId}/items', statuses: [200] },
  getExportJobsListV2: { method: 'GET', path: '/v2/export-jobs', statuses: [200] },
  getSubscriptionActivities: { method: 'GET', path: '/v1/subscriptions/{id}/activities', statuses: [200] },
  getSubscriptionById: { method: 'GET', path: '/v1/subscriptions/{id}', statuses: [200] },
  getSubscriptionHealth: { method: 'GET', path: '/v1/subscriptions/{id}/health', statuses: [200] },
  getSubscriptionMessage: { method: 'GET', path: '/v1/subscriptions/{id}/messages/{messageId}', statuses: [200] },
  getSubscriptions: { method: 'GET', path: '/v1/subscriptions', statuses: [200] },
  getSubscriptionSecret: { method: 'GET', path: '/v1/subscriptions/{id}/secret', statuses: [200] },
  getTaxCode: { method: 'GET', path: '/v0/tax-codes/{taxCodeId}', statuses: [200] },
  getTaxCodes: { method: 'POST', path: '/v0/tax-codes:search', statuses: [200] },
  listEvents: { method: 'GET', path: '/v1/events', statuses: [200] },
  listEventTypes: { method: 'GET', path: '/v1/event-types', statuses: [200] },
  listMessageAttempts: { method: 'GET', path: '/v1/subscriptions/{id}/messages/{messageId}/attempts', statuses: [200] },
  listSubscriptionMessages: { method: 'GET', path: '/v1/subscriptions/{id}/messages', statuses: [200] },
  putBookkeepingPreferences: { method: 'PUT', path: '/v1-beta/bookkeeping-preferences', statuses: [200] },
  recoverSubscriptionMessages: { method: 'POST', path: '/v1/subscriptions/{id}:recover', statuses: [202] },
  resendMessage: { method: 'POST', path: '/v1/subscriptions/{id}/messages/{messageId}:resend', statuses: [202] },
  rotateSubscriptionSecret: { method: 'POST', path: '/v1/subscriptions/{id}/secret:rotate', statuses: [200] },
  searchAccountingEntries: { method: 'POST', path: '/v1-beta/accounting-entries:search', statuses: [200] },
  searchAccountsV1: { method: 'POST', path: '/v1/chart-of-accounts:search', statuses: [200] },
  searchAccountsV4: { method: 'POST', path: '/v1-beta/accounts:search', statuses: [200] },
  searchAggregatedBookkeepingCategoryGroups: { method: 'POST', path: '/v1-beta/aggregated-bookkeeping-category-groups:search', statuses: [200] },
  searchBookkeepingCategories: { method: 'POST', path: '/v1-beta/bookkeeping-categories:search', statuses: [200] },
  searchBookkeepingCategoryGroups: { method: 'POST', path: '/v1-beta/bookkeeping-category-groups:search', statuses: [200] },
  searchContraAccounts: { method: 'POST', path: '/v1-beta/contra-accounts:search', statuses: [200] },
  sendTestEvent: { method: 'POST', path: '/v1/subscriptions/{id}:test', statuses: [202] },
  updateAccountV1: { method: 'PUT', path: '/v1/chart-of-accounts/{accountId}', statuses: [200] },
  updateAccountV4: { method: 'PUT', path: '/v1-beta/accounts/{accountId}', statuses: [200] },
  updateBookkeepingCategory: { method: 'PUT', path: '/v1-beta/bookkeeping-categories/{categoryId}', statuses: [200] },
  updateBookkeepingCategoryGroup: { method: 'PUT', path: '/v1-beta/bookkeeping-category-groups/{groupId}', statuses: [200] },
  updateContraAccount: { method: 'PUT', path: '/v1-beta/contra-accounts/{contraAccountId}', statuses: [200] },
  updateExportJobItemsV2: { method: 'PUT', path: '/v2/export-jobs/{jobId}/items', statuses: [200] },
  updateSubscription: { method: 'PUT', path: '/v1/subscriptions/{id}', statuses: [200] },
  updateTaxCode: { method: 'PUT', path: '/v0/tax-codes/{taxCodeId}', statuses: [200] },
} as const;

/** The `payload` of each event type's notification (and of its feed items), by event type. */
export interface WebhookPayloads {
  /** An export job was created (a user started an export); data is the job as GET answers it. */
  'v1.export-job.created': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An export job started (POST /v2/export-job-events started); data is the job as GET answers it, previousAttributes the changed fields before. */
  'v1.export-job.started': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.started';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An export job completed (event completed); data is the job as GET answers it, previousAttributes the changed fields before. */
  'v1.export-job.completed': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.completed';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An export job completed with errors (event completed_with_errors); data is the job as GET answers it, previousAttributes the changed fields before. */
  'v1.export-job.completed-with-errors': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.completed-with-errors';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An export job failed (event failed); data is the job as GET answers it, previousAttributes the changed fields before. */
  'v1.export-job.failed': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.failed';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An export job ran out of EXPORT_JOB_TTL without a change and became failed (job_expired); data is the job as GET answers it, previousAttributes the changed fields before. */
  'v1.export-job.expired': {
    /** An export job: a batch of accounting entries for an integration to transfer */
    data: {
      /** Identifier of the export job */
      id: string;
      /** Company the export job belongs to */
      companyId: string;
      /** When the job was created (UTC) */
      createdAt: string;
      /** The user who created it: the request's employeeId, else the token subject */
      createdBy: string | null;
      /** Seconds until the job expires, counted from lastUpdatedAt (EXPORT_JOB_TTL, default 3600) */
      expiresIn: number;
      /** Accounting entries selected for export */
      numberOfItems: number;
      /** Execution status: pending → in_progress → completed | completed_with_errors | failed; a pending job may also fail */
      status: 'pending' | 'in_progress' | 'failed' | 'completed' | 'completed_with_errors';
      /** Whether a user (rather than the system) started it */
      isInteractive: boolean;
      /** Whether items include vendor and bookkeeping data */
      vendorBasedBookkeeping: boolean;
      /** Why the job failed */
      failureReason: string | null;
      /** Classification of the failure */
      failureReasonType: 'invalid_configuration' | 'missing_configuration' | 'authentication_failure' | 'accounting_system_authentication_failure' | 'pleo_rate_limit' | 'accounting_system_rate_limit' | 'service_unreachable' | 'accounting_system_unreachable' | 'validation_failure' | 'authorization_failure' | 'integration_unusable' | 'job_expired' | 'service_timeout' | 'accounting_system_timeout' | 'canceled_by_user' | null;
      /** Last change of the job or its items (UTC) */
      lastUpdatedAt: string;
      /** When it became in_progress */
      startedAt: string | null;
      /** When it reached completed, completed_with_errors or failed */
      completedAt: string | null;
      /** When it expired */
      expiredAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.export-job.expired';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An account (v1-beta or the v1 chart of accounts) was created; data is it as GET answers it. */
  'v1.account.created': {
    /** An account of a company chart of accounts */
    data: {
      /** Identifier of the account in ledgerhook */
      id: string;
      /** Company the account belongs to */
      companyId: string;
      /** Unique identifier in the external system; may equal code */
      externalId: string;
      /** Name of the account */
      name: string;
      /** Whether the account is archived */
      archived: boolean;
      /** Account code or number in the external chart of accounts */
      code: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.account.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An account (v1-beta or the v1 chart of accounts) was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.account.updated': {
    /** An account of a company chart of accounts */
    data: {
      /** Identifier of the account in ledgerhook */
      id: string;
      /** Company the account belongs to */
      companyId: string;
      /** Unique identifier in the external system; may equal code */
      externalId: string;
      /** Name of the account */
      name: string;
      /** Whether the account is archived */
      archived: boolean;
      /** Account code or number in the external chart of accounts */
      code: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.account.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An account (v1-beta or the v1 chart of accounts) was deleted; data is its last state. */
  'v1.account.deleted': {
    /** An account of a company chart of accounts */
    data: {
      /** Identifier of the account in ledgerhook */
      id: string;
      /** Company the account belongs to */
      companyId: string;
      /** Unique identifier in the external system; may equal code */
      externalId: string;
      /** Name of the account */
      name: string;
      /** Whether the account is archived */
      archived: boolean;
      /** Account code or number in the external chart of accounts */
      code: string | null;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.account.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A tax code was created; data is it as GET answers it. */
  'v1.tax-code.created': {
    /** A tax code of a company */
    data: {
      /** Identifier of the tax code in ledgerhook */
      id: string;
      /** Company the tax code belongs to */
      companyId: string;
      /** Name of the tax code */
      name: string;
      /** The accounting system's identifier of the tax code */
      code: string | null;
      /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
      rate: number;
      /** Classification of the tax code */
      type: 'inclusive' | 'exclusive' | 'reverse';
      /** Whether the tax code is archived */
      archived: boolean;
      /** Ingoing tax account, usually for reverse VAT */
      ingoingTaxAccount: string | null;
      /** Outgoing tax account, usually for reverse VAT */
      outgoingTaxAccount: string | null;
      /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
      accountingIntegrationSystem: string | null;
      /** When the tax code was created (UTC) */
      createdAt: string;
      /** When the tax code was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.tax-code.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A tax code was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.tax-code.updated': {
    /** A tax code of a company */
    data: {
      /** Identifier of the tax code in ledgerhook */
      id: string;
      /** Company the tax code belongs to */
      companyId: string;
      /** Name of the tax code */
      name: string;
      /** The accounting system's identifier of the tax code */
      code: string | null;
      /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
      rate: number;
      /** Classification of the tax code */
      type: 'inclusive' | 'exclusive' | 'reverse';
      /** Whether the tax code is archived */
      archived: boolean;
      /** Ingoing tax account, usually for reverse VAT */
      ingoingTaxAccount: string | null;
      /** Outgoing tax account, usually for reverse VAT */
      outgoingTaxAccount: string | null;
      /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
      accountingIntegrationSystem: string | null;
      /** When the tax code was created (UTC) */
      createdAt: string;
      /** When the tax code was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.tax-code.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A tax code was deleted; data is its last state. */
  'v1.tax-code.deleted': {
    /** A tax code of a company */
    data: {
      /** Identifier of the tax code in ledgerhook */
      id: string;
      /** Company the tax code belongs to */
      companyId: string;
      /** Name of the tax code */
      name: string;
      /** The accounting system's identifier of the tax code */
      code: string | null;
      /** Rate as a decimal fraction, not a percentage: 0.2 is 20 % */
      rate: number;
      /** Classification of the tax code */
      type: 'inclusive' | 'exclusive' | 'reverse';
      /** Whether the tax code is archived */
      archived: boolean;
      /** Ingoing tax account, usually for reverse VAT */
      ingoingTaxAccount: string | null;
      /** Outgoing tax account, usually for reverse VAT */
      outgoingTaxAccount: string | null;
      /** The accounting system of the integration that created it: its token's accounting_system claim, else null */
      accountingIntegrationSystem: string | null;
      /** When the tax code was created (UTC) */
      createdAt: string;
      /** When the tax code was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.tax-code.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An accounting entry was created; data is it as GET answers it. */
  'v1.accounting-entry.created': {
    /** An accounting entry: an amount booked on an account */
    data: {
      /** Identifier of the accounting entry */
      id: string;
      /** Company the entry belongs to */
      companyId: string;
      /** Account the entry is booked on */
      accountId: string;
      /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
      amount: string;
      /** ISO 4217 currency code */
      currency: string;
      /** Booking date */
      date: string;
      /** Free text */
      description: string | null;
      /** When the entry was created (UTC) */
      createdAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.accounting-entry.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** An accounting entry was deleted; data is its last state. */
  'v1.accounting-entry.deleted': {
    /** An accounting entry: an amount booked on an account */
    data: {
      /** Identifier of the accounting entry */
      id: string;
      /** Company the entry belongs to */
      companyId: string;
      /** Account the entry is booked on */
      accountId: string;
      /** Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50") */
      amount: string;
      /** ISO 4217 currency code */
      currency: string;
      /** Booking date */
      date: string;
      /** Free text */
      description: string | null;
      /** When the entry was created (UTC) */
      createdAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.accounting-entry.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category group was created; data is it as GET answers it. */
  'v1.bookkeeping-category-group.created': {
    /** A bookkeeping category group */
    data: {
      /** Identifier of the category group in ledgerhook */
      id: string;
      /** Company the group belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the group */
      name: string;
      /** What the group holds, for the app to classify it */
      type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category-group.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category group was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.bookkeeping-category-group.updated': {
    /** A bookkeeping category group */
    data: {
      /** Identifier of the category group in ledgerhook */
      id: string;
      /** Company the group belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the group */
      name: string;
      /** What the group holds, for the app to classify it */
      type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category-group.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category group was deleted; data is its last state. */
  'v1.bookkeeping-category-group.deleted': {
    /** A bookkeeping category group */
    data: {
      /** Identifier of the category group in ledgerhook */
      id: string;
      /** Company the group belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the group */
      name: string;
      /** What the group holds, for the app to classify it */
      type: 'ENTERTAINMENT' | 'EQUIPMENT_AND_HARDWARE' | 'MARKETING_AND_ADVERTISING' | 'MEALS_AND_DRINKS' | 'OFFICE_EXPENSES' | 'PHONE_AND_INTERNET' | 'SERVICES_AND_CONSULTANCY' | 'SOFTWARE' | 'SUPPLIES' | 'TRAVEL' | 'OTHER' | 'NO_SUITABLE_CATEGORY';
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category-group.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category was created; data is it as GET answers it. */
  'v1.bookkeeping-category.created': {
    /** A bookkeeping category: what an expense is filed under */
    data: {
      /** Identifier of the category in ledgerhook */
      id: string;
      /** Company the category belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the category */
      name: string;
      /** The category group it belongs to */
      groupId: string;
      /** The account its expenses are booked to */
      accountId: string;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.bookkeeping-category.updated': {
    /** A bookkeeping category: what an expense is filed under */
    data: {
      /** Identifier of the category in ledgerhook */
      id: string;
      /** Company the category belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the category */
      name: string;
      /** The category group it belongs to */
      groupId: string;
      /** The account its expenses are booked to */
      accountId: string;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A bookkeeping category was deleted; data is its last state. */
  'v1.bookkeeping-category.deleted': {
    /** A bookkeeping category: what an expense is filed under */
    data: {
      /** Identifier of the category in ledgerhook */
      id: string;
      /** Company the category belongs to */
      companyId: string;
      /** Identifier in the external system, unique per company; null when the record has none */
      externalId: string | null;
      /** Name of the category */
      name: string;
      /** The category group it belongs to */
      groupId: string;
      /** The account its expenses are booked to */
      accountId: string;
      /** Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code. */
      taxCodeExternalId: string | null;
      /** Whether it is archived */
      archived: boolean;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When it was created (UTC) */
      createdAt: string;
      /** When it was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-category.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A contra account was created; data is it as GET answers it. */
  'v1.contra-account.created': {
    /** Where the money of an expense comes from, and the account it is booked against */
    data: {
      /** Identifier of the contra account */
      id: string;
      /** Company the contra account belongs to */
      companyId: string;
      /** Identifier of the contra account in the ERP, when it has one; unique per company */
      externalId: string | null;
      /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
      kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
      /** ISO 4217 code of an additional wallet currency; null for every other kind */
      currency: string | null;
      /** The account of the chart of accounts the money is booked against */
      accountId: string;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When the contra account was created (UTC) */
      createdAt: string;
      /** When the contra account was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.contra-account.created';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A contra account was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.contra-account.updated': {
    /** Where the money of an expense comes from, and the account it is booked against */
    data: {
      /** Identifier of the contra account */
      id: string;
      /** Company the contra account belongs to */
      companyId: string;
      /** Identifier of the contra account in the ERP, when it has one; unique per company */
      externalId: string | null;
      /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
      kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
      /** ISO 4217 code of an additional wallet currency; null for every other kind */
      currency: string | null;
      /** The account of the chart of accounts the money is booked against */
      accountId: string;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When the contra account was created (UTC) */
      createdAt: string;
      /** When the contra account was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.contra-account.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A contra account was deleted; data is its last state. */
  'v1.contra-account.deleted': {
    /** Where the money of an expense comes from, and the account it is booked against */
    data: {
      /** Identifier of the contra account */
      id: string;
      /** Company the contra account belongs to */
      companyId: string;
      /** Identifier of the contra account in the ERP, when it has one; unique per company */
      externalId: string | null;
      /** WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product */
      kind: 'WALLET' | 'ADDITIONAL_CURRENCY_WALLET' | 'ACCOUNTS_PAYABLE' | 'REIMBURSEMENT' | 'EXTERNAL_REIMBURSEMENT';
      /** ISO 4217 code of an additional wallet currency; null for every other kind */
      currency: string | null;
      /** The account of the chart of accounts the money is booked against */
      accountId: string;
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When the contra account was created (UTC) */
      createdAt: string;
      /** When the contra account was last changed (UTC) */
      updatedAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.contra-account.deleted';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** A company's bookkeeping preferences was changed; data is it as GET answers it after the change, previousAttributes the changed fields before. */
  'v1.bookkeeping-preferences.updated': {
    /** A company's bookkeeping preferences */
    data: {
      /** The company the preferences are of */
      companyId: string;
      /** How the target system books expenses: JOURNAL as journal entries, ACCOUNTS_PAYABLE as supplier invoices, NONE not at all */
      bookkeepingMethod: 'NONE' | 'JOURNAL' | 'ACCOUNTS_PAYABLE';
      /** Whether expenses are exported as positive amounts (else as negative ones, money leaving the company) */
      exportExpensesAsPositiveAmounts: boolean;
      /** ONE_LINE: one line per expense; MULTI_LINE: the net amount, the tax and the contra account on lines of their own */
      exportFormat: 'ONE_LINE' | 'MULTI_LINE';
      /** Free-form JSON for API users, at most 64 KiB */
      metadata: Record<string, unknown> | null;
      /** When the preferences were last stored (UTC); null while they are the defaults */
      updatedAt: string | null;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.bookkeeping-preferences.updated';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
  /** Operational: the service disabled one of the owner's subscriptions; sent to the owner's other subscriptions of this type, whatever their companies, and in no company's feed. */
  'v1.subscription.disabled': {
    /** A subscription the service made INACTIVE */
    data: {
      /** The subscription the service disabled */
      subscriptionId: string;
      /** Its endpoint */
      endpointUrl: string;
      /** The event types it carried */
      eventTypes: string[];
      /** ENDPOINT_FAILING: every attempt failed for WEBHOOK_DISABLE_AFTER (PUT status ACTIVE, then :recover); CLIENT_REVOKED: its client was revoked */
      reason: 'ENDPOINT_FAILING' | 'CLIENT_REVOKED';
      /** When it was disabled (UTC) */
      disabledAt: string;
    };
    /** The event: the same for every subscription, and in the feed */
    eventId: string;
    eventType: 'v1.subscription.disabled';
    /** Only on an event that changed an existing resource: each changed field of data with its value before the change */
    previousAttributes?: Record<string, unknown>;
    /** Orders the events of one resource: a later change has a larger number. Keep the largest you applied per resource and ignore an event with a smaller one. Not consecutive, and not comparable across resources */
    sequence: number;
  };
}

