import type { App, RouteDeps } from '../http/app.ts';
import { registerRecordRoutes } from '../http/record-routes.ts';
import * as operations from './operations.ts';
import {
  ContraAccountCreateSchema,
  ContraAccountEnvelope,
  ContraAccountIdParams,
  ContraAccountPageSchema,
  ContraAccountSearchQuery,
  ContraAccountSearchSchema,
  ContraAccountUpdateSchema,
} from './schemas.ts';
import { CONTRA_ACCOUNT_SORT_COLUMNS } from './store.ts';

export function registerContraAccountRoutes(app: App, deps: RouteDeps): void {
  registerRecordRoutes(app, deps, {
    base: '/v1-beta/contra-accounts',
    idParam: 'contraAccountId',
    tags: ['Contra accounts'],
    scopes: { read: 'contra-accounts:read', write: 'contra-accounts:write' },
    schemas: {
      envelope: ContraAccountEnvelope,
      idParams: ContraAccountIdParams,
      create: ContraAccountCreateSchema,
      update: ContraAccountUpdateSchema,
      search: ContraAccountSearchSchema,
      searchQuery: ContraAccountSearchQuery,
      page: ContraAccountPageSchema,
    },
    create: {
      operationId: 'createContraAccount',
      summary: 'Create a contra account',
      description:
        'One contra account per company, kind and currency (currency only for ADDITIONAL_CURRENCY_WALLET, required there), and per externalId when given. 201 when created; 200 when the company has this contra account with exactly these fields (a safe replay); 409 CONTRA_ACCOUNT_ALREADY_EXISTS, with existingId, when its kind and currency or its externalId are taken by a different one. accountId must be an account of the company (else 400 UNKNOWN_ACCOUNT).',
      replayed: 'The request matched an existing contra account',
      created: 'Contra account created',
      run: operations.createContraAccount,
    },
    get: {
      operationId: 'getContraAccount',
      summary: 'Get a contra account',
      run: operations.getContraAccount,
    },
    update: {
      operationId: 'updateContraAccount',
      summary: 'Update a contra account',
      description:
        'Replaces the account and metadata (an omitted metadata becomes null); kind and currency stay. accountId must be an account of the company (else 400 UNKNOWN_ACCOUNT).',
      run: operations.updateContraAccount,
    },
    delete: {
      operationId: 'deleteContraAccount',
      summary: 'Delete a contra account',
      description: 'Its account stays, and can be deleted once nothing else uses it.',
      run: operations.deleteContraAccount,
    },
    search: {
      operationId: 'searchContraAccounts',
      summary: 'Search contra accounts',
      description:
        'Filters are ANDed: ids, kinds, currencies and accountIds (each any of), externalId (exact). Sorted by kind, then currency, unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
      resource: 'contra-accounts',
      defaultSort: [
        { key: 'kind', order: 'ASC' },
        { key: 'currency', order: 'ASC' },
      ],
      columns: CONTRA_ACCOUNT_SORT_COLUMNS,
      filters: operations.toContraAccountFilters,
      run: operations.searchContraAccounts,
    },
  });
}
