// The accounts a search leaves out for being assigned to something (the reference's
// excludeIfAssignedTo… filters). A company assigns a handful of its accounts, so the search reads
// their ids once, through the index of what assigns them, and tests each account it walks against
// that short list: the walk costs what it costs without the filter (docs/performance.md).
import type { SqlParams } from '../db/sql-params.ts';

export interface AssignmentFilters {
  companyId: string;
  excludeIfAssignedToContraAccount: boolean;
}

/**
 * An SQL array of the ids of the company's accounts that the filters leave out, evaluated once per
 * statement; undefined when they leave out none.
 */
export function excludedAccountIds(filters: AssignmentFilters, params: SqlParams): string | undefined {
  const assigned: string[] = [];
  if (filters.excludeIfAssignedToContraAccount) {
    assigned.push(`SELECT account_id FROM contra_accounts WHERE company_id = ${params.add(filters.companyId)}`);
  }
  return assigned.length > 0 ? `ARRAY(${assigned.join(' UNION ALL ')})` : undefined;
}
