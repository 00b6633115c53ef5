// What the tax codes API does, one function per operation
// (docs/decisions/tax-codes-and-entries.md). Routes parse and shape; these decide.
import type { Principal } from '../auth/principal.ts';
import { type Database, isPgError, PG_UNIQUE_VIOLATION } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError, jsonPointer, validationError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { recordCreation, recordDeletions, recordUpdate } from '../webhooks/record-change.ts';
import {
  type CalculatedTaxes,
  type CalculateTaxes,
  MAX_TAXED_AMOUNTS,
  type TaxCode,
  type TaxCodeSearch,
  type TaxCodeType,
  type TaxCodeWrite,
} from './schemas.ts';
import * as store from './store.ts';
import { taxBreakdown } from './tax-amounts.ts';

/**
 * The new tax code and its `v1.tax-code.created` event, in one transaction (201). A create whose
 * code is taken by a tax code with the same fields is a replay, as an account's: the stored one is
 * answered (200) and nothing is recorded; with other fields it is 409 TAX_CODE_ALREADY_EXISTS.
 */
export async function createTaxCode(
  db: Database,
  principal: Principal,
  input: TaxCodeWrite,
): Promise<{ taxCode: TaxCode; created: boolean }> {
  assertCompanyAccess(principal, input.companyId);
  const companyId = input.companyId.toLowerCase();
  const fields = toFields(input);
  try {
    const taxCode = await db.transaction(async (tx) => {
      const inserted = await store.insertTaxCode(tx, companyId, fields, principal.accountingSystem ?? null);
      await recordCreation(tx, 'v1.tax-code.created', inserted);
      return inserted;
    });
    return { taxCode, created: true };
  } catch (error) {
    const stored = await storedWithCode(error, db, principal, companyId, fields.code);
    if (stored && sameFields(stored, fields)) return { taxCode: stored, created: false };
    throw await codeConflictOr(error, db, companyId, fields.code);
  }
}

/** After a unique violation of `code`: the tax code that holds it, if it is still there. */
async function storedWithCode(
  error: unknown,
  db: Database,
  principal: Principal,
  companyId: string,
  code: string | null,
): Promise<TaxCode | undefined> {
  if (!isPgError(error, PG_UNIQUE_VIOLATION) || code === null) return undefined;
  const id = await store.findTaxCodeIdByCode(db, companyId, code);
  return id === undefined ? undefined : store.findTaxCode(db, id, [...principal.companies]);
}

function sameFields(stored: TaxCode, fields: store.TaxCodeFields): boolean {
  return (Object.keys(fields) as (keyof store.TaxCodeFields)[]).every((key) => stored[key] === fields[key]);
}

export async function getTaxCode(db: Database, principal: Principal, id: string): Promise<TaxCode> {
  const row = await store.findTaxCode(db, id, [...principal.companies]);
  if (!row) throw taxCodeNotFound(id);
  return row;
}

/**
 * A full replacement: an omitted optional field becomes null. The body's companyId must be the
 * company the tax code belongs to; a tax code never moves between companies. Records
 * `v1.tax-code.updated` unless nothing but updatedAt changed.
 */
export async function updateTaxCode(
  db: Database,
  principal: Principal,
  id: string,
  input: TaxCodeWrite,
): Promise<TaxCode> {
  assertCompanyAccess(principal, input.companyId);
  const companyId = input.companyId.toLowerCase();
  const fields = toFields(input);
  try {
    return await db.transaction(async (tx) => {
      const current = await store.findTaxCode(tx, id, [...principal.companies], { forUpdate: true });
      if (!current) throw taxCodeNotFound(id);
      if (current.companyId !== companyId) {
        throw validationError(
          [{ path: '/companyId', message: 'must be the company the tax code belongs to', in: 'body' }],
          `Tax code ${id} belongs to another company; it cannot move`,
        );
      }
      const updated = await store.updateTaxCode(tx, id, fields);
      await recordUpdate(tx, 'v1.tax-code.updated', current, updated);
      return updated;
    });
  } catch (error) {
    throw await codeConflictOr(error, db, companyId, fields.code);
  }
}

/**
 * Deletes the tax code even when accounts name its code in taxCodeExternalId: that is a soft
 * reference to the accounting system's code (docs/decisions/tax-codes-and-entries.md). Its
 * `v1.tax-code.deleted` event carries its last state.
 */
export async function deleteTaxCode(db: Database, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await store.deleteTaxCode(tx, id, [...principal.companies]);
    if (!deleted) throw taxCodeNotFound(id);
    await recordDeletions(tx, 'v1.tax-code.deleted', [deleted]);
  });
}

export async function searchTaxCodes(db: Database, filters: store.TaxCodeFilters, position: PagePosition) {
  const page = await store.searchTaxCodes(db, filters, position);
  return page;
}

/**
 * The normalised filters of a search; also what its cursors are bound to. The company comes from
 * the company_id query parameter (the reference API's), or is the token's only company.
 */
export function toTaxCodeFilters(
  principal: Principal,
  companyIdParam: string | undefined,
  body: TaxCodeSearch,
): store.TaxCodeFilters {
  return {
    companyId: searchCompany(principal, companyIdParam),
    ids: lowerIds(body.taxCodeIds),
    code: body.code ?? null,
    type: body.type ?? null,
    archived: body.archived ?? null,
  };
}

function searchCompany(principal: Principal, companyIdParam: string | undefined): string {
  if (companyIdParam !== undefined) {
    assertCompanyAccess(principal, companyIdParam);
    return companyIdParam.toLowerCase();
  }
  const [only, ...others] = principal.companies;
  if (only !== undefined && others.length === 0) return only;
  throw validationError(
    [{ path: '/company_id', message: 'is required when the token does not list exactly one company', in: 'query' }],
    'Say which company to search with company_id',
  );
}

/**
 * Gross, net and tax of each amount under its tax code's rate and type (tax-amounts.ts). Every key
 * must be a tax code of a company the token lists, else 400 TAX_CODE_NOT_FOUND naming each one that
 * is not: another company's answers as a missing one. Archived tax codes calculate too.
 */
export async function calculateTaxAmounts(
  db: Database,
  principal: Principal,
  input: CalculateTaxes,
): Promise<CalculatedTaxes> {
  const requested = Object.entries(input.amountsByTaxCodeId);
  const count = requested.reduce((sum, [, amounts]) => sum + amounts.length, 0);
  if (count > MAX_TAXED_AMOUNTS) {
    throw new ApiError('TOO_MANY_ITEMS', `At most ${MAX_TAXED_AMOUNTS} amounts per calculation, not ${count}`);
  }
  const ids = [...new Set(requested.map(([id]) => id.toLowerCase()))];
  const taxCodes = new Map((await store.findTaxRates(db, ids, [...principal.companies])).map((row) => [row.id, row]));
  const unknown = requested.filter(([id]) => !taxCodes.has(id.toLowerCase())).map(([id]) => id);
  if (unknown.length > 0) {
    throw new ApiError('TAX_CODE_NOT_FOUND', `No tax code ${unknown.join(', ')}`, {
      errors: unknown.map((id) => ({
        path: jsonPointer(['amountsByTaxCodeId', id]),
        message: 'must be the id of a tax code of a company the token lists',
        in: 'body',
      })),
    });
  }
  const taxes: CalculatedTaxes['taxes'] = {};
  for (const [id, amounts] of requested) {
    const { rate, type } = taxCodes.get(id.toLowerCase()) as { rate: string; type: TaxCodeType };
    taxes[id] = amounts.map(({ id: amountId, amount: { currency, minors } }) => {
      const { gross, net, tax } = taxBreakdown(BigInt(minors), rate, type);
      const money = (value: bigint) => ({ currency, minors: Number(value) });
      return { id: amountId, amountTaxBreakdown: { gross: money(gross), net: money(net), tax: money(tax) } };
    });
  }
  return { taxes };
}

function toFields(input: TaxCodeWrite): store.TaxCodeFields {
  return {
    name: input.name,
    code: input.code ?? null,
    rate: input.rate,
    type: input.type,
    archived: input.archived,
    ingoingTaxAccount: input.ingoingTaxAccount ?? null,
    outgoingTaxAccount: input.outgoingTaxAccount ?? null,
  };
}

/** 409 TAX_CODE_ALREADY_EXISTS, with the holder's id, for a taken code; any other error as it was. */
async function codeConflictOr(error: unknown, db: Database, companyId: string, code: string | null): Promise<unknown> {
  if (!isPgError(error, PG_UNIQUE_VIOLATION) || code === null) return error;
  const existingId = await store.findTaxCodeIdByCode(db, companyId, code);
  return new ApiError('TAX_CODE_ALREADY_EXISTS', `Company ${companyId} already has a tax code with code ${code}`, {
    ...(existingId && { existingId }),
  });
}

function taxCodeNotFound(id: string): ApiError {
  return new ApiError('TAX_CODE_ID_NOT_FOUND', `No tax code ${id}`);
}
