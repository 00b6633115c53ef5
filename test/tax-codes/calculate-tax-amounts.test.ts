import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { startCompanyTestApp } from '../support/company-app.ts';
import { assertMatchesReference } from '../support/reference-schemas.ts';
import { itEnforcesAccess } from '../support/security.ts';

const { t, company, token } = await startCompanyTestApp();

const URL = '/v0/tax-codes:calculate-tax-amounts';

async function taxCode(rate: number, type: string, fields: Record<string, unknown> = {}, as = token) {
  const body = { companyId: company, name: `${type} ${rate}`, rate, type, archived: false, ...fields };
  const response = await t.request('POST', '/v0/tax-codes', { token: as, body });
  assert.equal(response.status, 201, response.text);
  return response.body.data.id as string;
}

const calculate = (amountsByTaxCodeId: unknown, as = token) =>
  t.request('POST', URL, { token: as, body: { amountsByTaxCodeId } });

/** One amount's breakdown, each as [currency, minors]. */
async function breakdownOf(taxCodeId: string, currency: string, minors: number) {
  const response = await calculate({ [taxCodeId]: [{ id: 'line', amount: { currency, minors } }] });
  assert.equal(response.status, 200, response.text);
  const [{ id, amountTaxBreakdown }] = response.body.data.taxes[taxCodeId];
  assert.equal(id, 'line');
  for (const money of Object.values<{ currency: string }>(amountTaxBreakdown)) assert.equal(money.currency, currency);
  return [amountTaxBreakdown.gross.minors, amountTaxBreakdown.net.minors, amountTaxBreakdown.tax.minors];
}

describe('POST /v0/tax-codes:calculate-tax-amounts', () => {
  it('answers gross, net and tax, computed by hand, for each type, rounding half away from zero', async () => {
    // [rate, type, currency, minors, [gross, net, tax]]; the exact tax, before rounding, in the comment.
    const cases: [number, string, string, number, number[]][] = [
      [0.25, 'exclusive', 'EUR', 10000, [12500, 10000, 2500]], // 10000 × 0.25 = 2500
      [0.25, 'inclusive', 'EUR', 12500, [12500, 10000, 2500]], // 12500 × 0.25 / 1.25 = 2500
      [0.25, 'reverse', 'EUR', 10000, [10000, 10000, 2500]], // paid 10000; self-assessed 10000 × 0.25
      [0.2, 'inclusive', 'JPY', 15, [15, 12, 3]], // 15 × 0.2 / 1.2 = 2.5 → 3 (half-even would say 2)
      [0.2, 'inclusive', 'JPY', -15, [-15, -12, -3]], // a refund mirrors its purchase: −2.5 → −3
      [0.125, 'exclusive', 'KWD', 1012, [1139, 1012, 127]], // 1.012 KWD × 0.125 = 126.5 fils → 127
      [0.125, 'exclusive', 'BHD', -1012, [-1139, -1012, -127]], // −126.5 → −127
      [0.145, 'exclusive', 'EUR', 100, [115, 100, 15]], // 14.5 → 15; in doubles 100 × 0.145 = 14.4999…98
      [0.30000000000000004, 'exclusive', 'EUR', 100, [130, 100, 30]], // 30.0000000000000040 → 30
      // 999999999999999 × 0.123456789 / 1.123456789 = 3336669972972969636303 / 30363697 ≈ 109890108999999.99
      [0.123456789, 'inclusive', 'BHD', 999999999999999, [999999999999999, 890109890999999, 109890109000000]],
      // −999999999999999 × 0.123456789 = −123456788999999.876543211 → −123456789000000
      [0.123456789, 'exclusive', 'EUR', -999999999999999, [-1123456788999999, -999999999999999, -123456789000000]],
      [1, 'inclusive', 'EUR', 3, [3, 1, 2]], // 3 × 1 / 2 = 1.5 → 2
      [1, 'exclusive', 'EUR', 999999999999999, [1999999999999998, 999999999999999, 999999999999999]],
      [0, 'exclusive', 'JPY', 999, [999, 999, 0]],
      [1e-7, 'exclusive', 'EUR', 5000000, [5000001, 5000000, 1]], // 0.5 → 1
      [1e-7, 'exclusive', 'EUR', 4999999, [4999999, 4999999, 0]], // 0.4999999 → 0
      [0.25, 'exclusive', 'EUR', 0, [0, 0, 0]],
    ];
    for (const [rate, type, currency, minors, expected] of cases) {
      const id = await taxCode(rate, type);
      assert.deepEqual(await breakdownOf(id, currency, minors), expected, `${type} ${rate} of ${currency} ${minors}`);
    }
  });

  it('answers every amount of every tax code, under the ids as sent, in the order sent', async () => {
    const standard = await taxCode(0.25, 'inclusive');
    const reduced = await taxCode(0.06, 'exclusive', { archived: true });
    const unused = await taxCode(0.12, 'exclusive');
    const money = (minors: number) => ({ currency: 'DKK', minors });
    const response = await calculate({
      [standard.toUpperCase()]: [
        { id: 'b', amount: money(100) },
        { id: 'a', amount: money(250) },
        { id: 'b', amount: money(-100) },
      ],
      [reduced]: [{ id: 'x', amount: money(1000) }],
      [unused]: [],
    });
    assert.equal(response.status, 200, response.text);
    const breakdown = (gross: number, net: number, tax: number) => ({
      gross: money(gross),
      net: money(net),
      tax: money(tax),
    });
    assert.deepEqual(response.body, {
      data: {
        taxes: {
          [standard.toUpperCase()]: [
            { id: 'b', amountTaxBreakdown: breakdown(100, 80, 20) },
            { id: 'a', amountTaxBreakdown: breakdown(250, 200, 50) },
            { id: 'b', amountTaxBreakdown: breakdown(-100, -80, -20) },
          ],
          [reduced]: [{ id: 'x', amountTaxBreakdown: breakdown(1060, 1000, 60) }],
          [unused]: [],
        },
      },
    });
    assertMatchesReference('DataResponseCalculateTaxesResponse', response.body);
    const none = await calculate({});
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body, { data: { taxes: {} } });
  });

  it('answers 400 TAX_CODE_NOT_FOUND alike for an unknown tax code and for one of another company', async () => {
    const stranger = randomUUID();
    const strangerToken = await t.token({ companies: [stranger] });
    const foreign = await taxCode(
      0.25,
      'exclusive',
      { companyId: stranger, name: 'Secret', code: 'S-1' },
      strangerToken,
    );
    const known = await taxCode(0.25, 'exclusive');
    const unknown = randomUUID();
    const amount = [{ id: 'line', amount: { currency: 'EUR', minors: 100 } }];
    const response = await calculate({ [known]: amount, [foreign]: amount, [unknown]: amount });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.type, 'TAX_CODE_NOT_FOUND');
    assert.deepEqual(
      response.body.errors.map((e: { path: string; in: string }) => [e.path, e.in]),
      [
        [`/amountsByTaxCodeId/${foreign}`, 'body'],
        [`/amountsByTaxCodeId/${unknown}`, 'body'],
      ],
    );
    assert.equal(response.body.errors[0].message, response.body.errors[1].message);
    assert.ok(!/Secret|S-1|0\.25|exclusive/.test(response.body.detail + JSON.stringify(response.body.errors)));
    const alone = await calculate({ [foreign]: amount });
    const missing = await calculate({ [unknown]: amount });
    assert.equal(alone.status, missing.status);
    assert.equal(alone.body.detail.replace(foreign, 'ID'), missing.body.detail.replace(unknown, 'ID'));
  });

  it('answers 400 naming each invalid field, key or amount', async () => {
    const id = await taxCode(0.25, 'exclusive');
    const invalid: [unknown, string[]][] = [
      [{ 'not-a-uuid': [] }, ['/amountsByTaxCodeId/not-a-uuid']],
      [
        { [id]: [{ id: 'a', amount: { currency: 'EUR', minors: 12.5 } }] },
        [`/amountsByTaxCodeId/${id}/0/amount/minors`],
      ],
      [
        { [id]: [{ id: 'a', amount: { currency: 'EUR', minors: 1e15 } }] },
        [`/amountsByTaxCodeId/${id}/0/amount/minors`],
      ],
      [
        { [id]: [{ id: 'a', amount: { currency: 'EUR', minors: '100' } }] },
        [`/amountsByTaxCodeId/${id}/0/amount/minors`],
      ],
      [
        { [id]: [{ id: 'a', amount: { currency: 'eur', minors: 1 } }] },
        [`/amountsByTaxCodeId/${id}/0/amount/currency`],
      ],
      [
        { [id]: [{ id: '', amount: { minors: 1 } }] },
        [`/amountsByTaxCodeId/${id}/0/amount/currency`, `/amountsByTaxCodeId/${id}/0/id`],
      ],
      [{ [id]: { id: 'a' } }, [`/amountsByTaxCodeId/${id}`]],
    ];
    for (const [amountsByTaxCodeId, paths] of invalid) {
      const response = await calculate(amountsByTaxCodeId);
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
      assert.deepEqual(response.body.errors.map((e: { path: string }) => e.path).sort(), paths, response.text);
    }
    for (const body of [undefined, {}, { amountsByTaxCodeId: [] }]) {
      const response = await t.request('POST', URL, { token, body });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.type, 'VALIDATION_FAILED');
    }
  });

  it('answers 413 TOO_MANY_ITEMS past 1,000 amounts, and calculates 1,000', async () => {
    const [first, second] = [await taxCode(0.25, 'exclusive'), await taxCode(0.1, 'inclusive')];
    const amounts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `line-${i}`, amount: { currency: 'EUR', minors: i } }));
    const tooMany = await calculate({ [first]: amounts(500), [second]: amounts(501) });
    assert.equal(tooMany.status, 413, tooMany.text);
    assert.equal(tooMany.body.type, 'TOO_MANY_ITEMS');
    const enough = await calculate({ [first]: amounts(500), [second]: amounts(500) });
    assert.equal(enough.status, 200, enough.text);
    assert.equal(enough.body.data.taxes[second][499].amountTaxBreakdown.tax.minors, 45); // 499 / 11 = 45.36
  });

  let guarded: string;
  before(async () => {
    guarded = await taxCode(0.25, 'inclusive');
  });
  itEnforcesAccess(() => t, {
    method: 'POST',
    url: () => URL,
    body: () => ({ amountsByTaxCodeId: { [guarded]: [{ id: 'a', amount: { currency: 'EUR', minors: 1 } }] } }),
    scope: 'tax-codes:read',
    company: () => company,
  });
});
