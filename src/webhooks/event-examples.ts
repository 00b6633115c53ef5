// One `data` per resource as a receiver gets it, shown beside each event type's schema
// (test/webhooks/event-types.test.ts validates each against its schema).

const COMPANY = '5f1d2c3b-8a7e-4d6c-b5a4-3e2f1d0c9b8a';
const ACCOUNT = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
const GROUP = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const CREATED_AT = '2026-01-15T09:30:00.000Z';
const UPDATED_AT = '2026-01-16T14:05:12.345Z';

export const ACCOUNT_EXAMPLE = {
  id: ACCOUNT,
  companyId: COMPANY,
  externalId: '6540',
  name: 'Travel expenses',
  archived: false,
  code: '6540',
  taxCodeExternalId: 'VAT25',
  metadata: null,
};

export const TAX_CODE_EXAMPLE = {
  id: '4c3b2a19-0f8e-4d7c-a6b5-948372615a4b',
  companyId: COMPANY,
  name: 'Standard VAT (25 %)',
  code: 'VAT25',
  rate: 0.25,
  type: 'exclusive',
  archived: false,
  ingoingTaxAccount: null,
  outgoingTaxAccount: null,
  accountingIntegrationSystem: null,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

export const ACCOUNTING_ENTRY_EXAMPLE = {
  id: '8d7c6b5a-4f3e-4d2c-8b1a-0f9e8d7c6b5a',
  companyId: COMPANY,
  accountId: ACCOUNT,
  amount: '-129.50',
  currency: 'EUR',
  date: '2026-01-14',
  description: 'Train to Lyon',
  createdAt: CREATED_AT,
};

export const EXPORT_JOB_EXAMPLE = {
  id: '0b7e2f4c-5d3a-4c1e-9a8f-2d6b1c3e4f50',
  companyId: COMPANY,
  createdAt: CREATED_AT,
  createdBy: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  expiresIn: 3600,
  numberOfItems: 42,
  status: 'pending',
  isInteractive: true,
  vendorBasedBookkeeping: false,
  failureReason: null,
  failureReasonType: null,
  lastUpdatedAt: CREATED_AT,
  startedAt: null,
  completedAt: null,
  expiredAt: null,
};

export const CATEGORY_GROUP_EXAMPLE = {
  id: GROUP,
  companyId: COMPANY,
  externalId: 'grp-travel',
  name: 'Travel',
  type: 'TRAVEL',
  archived: false,
  metadata: null,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

export const CATEGORY_EXAMPLE = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  companyId: COMPANY,
  externalId: 'cat-flights',
  name: 'Flights',
  groupId: GROUP,
  accountId: ACCOUNT,
  taxCodeExternalId: 'VAT25',
  archived: false,
  metadata: null,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

export const CONTRA_ACCOUNT_EXAMPLE = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  companyId: COMPANY,
  externalId: null,
  kind: 'ADDITIONAL_CURRENCY_WALLET',
  currency: 'USD',
  accountId: ACCOUNT,
  metadata: null,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
};

export const BOOKKEEPING_PREFERENCES_EXAMPLE = {
  companyId: COMPANY,
  bookkeepingMethod: 'JOURNAL',
  exportExpensesAsPositiveAmounts: false,
  exportFormat: 'MULTI_LINE',
  metadata: null,
  updatedAt: UPDATED_AT,
};

export const SUBSCRIPTION_DISABLED_EXAMPLE = {
  subscriptionId: '6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c',
  endpointUrl: 'https://erp.example.com/ledgerhook',
  eventTypes: ['v1.account.created', 'v1.account.updated'],
  reason: 'ENDPOINT_FAILING',
  disabledAt: UPDATED_AT,
};
