// The accounts a search leaves out for being assigned to something (the reference's
// excludeIfAssignedTo… filters; docs/decisions/bookkeeping.md). A company assigns few of its
// accounts, so the walk of the company's accounts costs what it costs without the filter: each
// account met is tested against the company's contra-account accounts, read once per statement (a
// handful), or left out by an anti join with the categories (a company may have hundreds), which
// probes their account_id index per account met. The total subtracts the assigned
// accounts, each looked up by its id (docs/performance.md).
import type { SqlParams } from '../db/sql-params.ts';

export interface AssignmentFilters {
  companyId: string;
  excludeIfAssignedToContraAccount: boolean;
  excludeIfAssignedToCategory: boolean;
}

/** The conditions on each account walked that leave out the assigned ones. */
export function notAssignedConditions(filters: AssignmentFilters, params: SqlParams): string[] {
  const conditions: string[] = [];
  if (filters.excludeIfAssignedToContraAccount) {
    conditions.push(`id <> ALL (ARRAY(${contraAccountAccounts(filters, params)}))`);
  }
  if (filters.excludeIfAssignedToCategory) {
    // An anti join the planner sizes from the categories' statistics: a page walks the sort index
    // probing the account_id index per account met; a scan over many accounts (an offset page's
    // boundary) hashes the categories instead. A per-row subquery would hide the filter's share of
    // rows from the planner, which then sorted the whole company (docs/performance.md).
    conditions.push(
      'NOT EXISTS (SELECT 1 FROM bookkeeping_categories assigned WHERE assigned.account_id = accounts.id)',
    );
  }
  return conditions;
}

/**
 * An SQL array of the ids of the company's accounts that the filters leave out, evaluated once per
 * statement; undefined when they leave out none. An account assigned twice is in it twice.
 */
export function excludedAccountIds(filters: AssignmentFilters, params: SqlParams): string | undefined {
  const assigned: string[] = [];
  if (filters.excludeIfAssignedToContraAccount) assigned.push(contraAccountAccounts(filters, params));
  if (filters.excludeIfAssignedToCategory) {
    assigned.push(`SELECT account_id FROM bookkeeping_categories WHERE company_id = ${params.add(filters.companyId)}`);
  }
  return assigned.length > 0 ? `ARRAY(${assigned.join(' UNION ALL ')})` : undefined;
}

function contraAccountAccounts(filters: AssignmentFilters, params: SqlParams): string {
  return `SELECT account_id FROM contra_accounts WHERE company_id = ${params.add(filters.companyId)}`;
}
