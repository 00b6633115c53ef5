// Every operation of the OpenAPI document has a method of the client, and each answers from a real
// service: a pass through tax codes, accounting entries, export jobs, bookkeeping, subscriptions and
// their delivery log, and the event feed, whose requests are matched to the document's operations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPERATIONS } from '../../clients/typescript/src/generated/openapi.ts';
import { Ledgerhook } from '../../clients/typescript/src/index.ts';
import { startReceiver, type TestReceiver } from '../webhooks/delivery/fixtures.ts';
import { type ClientTestService, recordingFetch, type SentRequest, startClientTestService } from './support.ts';

let t: ClientTestService;
let receiver: TestReceiver;
let lh: Ledgerhook;
let companyId: string;
const sent: SentRequest[] = [];

before(async () => {
  t = await startClientTestService({ worker: true });
  receiver = await startReceiver();
  const application = await t.application();
  companyId = application.companyId;
  lh = new Ledgerhook({ baseUrl: t.baseUrl, apiKey: application.apiKey, fetch: recordingFetch(sent) });
});
after(async () => {
  await receiver?.close();
  await t?.close();
});

const all = async <T>(items: AsyncIterable<T>) => {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
};

describe('every resource', { timeout: 60_000 }, () => {
  it('accounts and the chart of accounts (test/client/accounts.test.ts has the detail)', async () => {
    for (const accounts of [lh.accounts, lh.chartOfAccounts]) {
      const account = await accounts.create({ companyId, externalId: 'x', name: 'X', archived: false });
      assert.equal((await accounts.update(account.id, { name: 'Y', archived: false })).name, 'Y');
      assert.equal((await accounts.get(account.id)).name, 'Y');
      assert.equal((await accounts.search({ companyId, ids: [account.id] }).page()).pagination.total, 1);
      await accounts.delete(account.id);
    }
    const batch = await lh.chartOfAccounts.batch({
      companyId,
      items: [{ externalId: 'b', name: 'B', archived: false }],
    });
    assert.equal(batch.created.length, 1);
  });

  it('tax codes, and the tax of amounts', async () => {
    const body = { companyId, name: 'Standard (25 %)', rate: 0.25, type: 'inclusive', archived: false } as const;
    const tax = await lh.taxCodes.create(body);
    assert.equal((await lh.taxCodes.get(tax.id)).rate, 0.25);
    assert.equal((await lh.taxCodes.update(tax.id, { ...body, name: 'Standard' })).name, 'Standard');
    const found = await all(lh.taxCodes.search({ taxCodeIds: [tax.id] }, { company_id: companyId }));
    assert.deepEqual(
      found.map((code) => code.id),
      [tax.id],
    );
    const { taxes } = await lh.taxCodes.calculate({
      amountsByTaxCodeId: { [tax.id]: [{ id: 'r1', amount: { currency: 'DKK', minors: 12500 } }] },
    });
    assert.equal(taxes[tax.id]?.[0]?.amountTaxBreakdown.tax.minors, 2500);
    await lh.taxCodes.delete(tax.id);
  });

  it('accounting entries and an export job, its items and events', async () => {
    const account = await lh.accounts.create({ companyId, externalId: '1000', name: 'Bank', archived: false });
    const entry = await lh.accountingEntries.create({
      companyId,
      accountId: account.id,
      amount: '-12.50',
      currency: 'EUR',
      date: '2026-11-22',
    });
    assert.equal((await lh.accountingEntries.get(entry.id)).amount, '-12.50');
    assert.equal((await all(lh.accountingEntries.search({ companyId }))).length, 1);

    const job = await lh.exportJobs.create({ companyId });
    assert.equal((await lh.exportJobs.get(job.id)).status, 'pending');
    assert.deepEqual(
      (await all(lh.exportJobs.list({ company_id: companyId }))).map((listed) => listed.id),
      [job.id],
    );
    await lh.exportJobs.events.create({ jobId: job.id, event: 'started' });
    const items = await all(lh.exportJobs.items.list(job.id));
    assert.deepEqual(
      items.map((item) => item.accountingEntryId),
      [entry.id],
    );
    await lh.exportJobs.items.update(job.id, [
      { accountingEntryId: entry.id, status: 'successful', externalId: 'B-17' },
    ]);
    await lh.exportJobs.events.create({ jobId: job.id, event: 'completed' });
    assert.equal((await lh.exportJobs.get(job.id)).status, 'completed');

    const other = await lh.accountingEntries.create({
      companyId,
      accountId: account.id,
      amount: '1',
      currency: 'EUR',
      date: '2026-11-23',
    });
    await lh.accountingEntries.delete(other.id);
  });

  it('bookkeeping: groups, categories, the aggregated view, contra accounts and preferences', async () => {
    const account = await lh.accounts.create({ companyId, externalId: '6110', name: 'Airfare', archived: false });
    const groupBody = { companyId, name: 'Travel', type: 'TRAVEL', archived: false } as const;
    const group = await lh.bookkeepingCategoryGroups.create(groupBody);
    assert.equal((await lh.bookkeepingCategoryGroups.get(group.id)).name, 'Travel');
    await lh.bookkeepingCategoryGroups.update(group.id, { name: 'Trips', type: 'TRAVEL', archived: false });
    assert.equal((await all(lh.bookkeepingCategoryGroups.search({ companyId })))[0]?.name, 'Trips');

    const categoryBody = { name: 'Flights', groupId: group.id, accountId: account.id, archived: false };
    const category = await lh.bookkeepingCategories.create({ companyId, ...categoryBody });
    assert.equal((await lh.bookkeepingCategories.get(category.id)).accountId, account.id);
    await lh.bookkeepingCategories.update(category.id, { ...categoryBody, name: 'Air travel' });
    assert.equal((await all(lh.bookkeepingCategories.search({ companyId })))[0]?.name, 'Air travel');
    const [aggregated] = await all(lh.bookkeepingCategoryGroups.searchAggregated({ companyId }));
    assert.equal(aggregated?.categories[0]?.account?.id, account.id);
    await lh.bookkeepingCategories.delete(category.id);
    await lh.bookkeepingCategoryGroups.delete(group.id);

    const contra = await lh.contraAccounts.create({ companyId, kind: 'WALLET', accountId: account.id });
    assert.equal((await lh.contraAccounts.get(contra.id)).kind, 'WALLET');
    await lh.contraAccounts.update(contra.id, { accountId: account.id, metadata: { note: 'main' } });
    assert.equal((await all(lh.contraAccounts.search({ companyId }))).length, 1);
    await lh.contraAccounts.delete(contra.id);

    const preferences = {
      companyId,
      bookkeepingMethod: 'JOURNAL',
      exportExpensesAsPositiveAmounts: true,
      exportFormat: 'ONE_LINE',
    } as const;
    await lh.bookkeepingPreferences.update(preferences);
    assert.equal((await lh.bookkeepingPreferences.get(companyId)).bookkeepingMethod, 'JOURNAL');
  });

  it('subscriptions, their secret, trail, health and delivery log', async () => {
    const body = { eventTypes: ['v1.tax-code.created'], endpointUrl: receiver.url };
    const subscription = await lh.subscriptions.create(body);
    assert.equal((await lh.subscriptions.get(subscription.id)).endpointUrl, receiver.url);
    assert.ok((await all(lh.subscriptions.list())).some((listed) => listed.id === subscription.id));
    await lh.subscriptions.update(subscription.id, { ...body, customHeaders: { 'x-team': 'books' } });
    const { secretKey } = await lh.subscriptions.secret(subscription.id);
    assert.match(secretKey, /^whsec_/);
    assert.notEqual((await lh.subscriptions.rotateSecret(subscription.id)).secretKey, secretKey);
    assert.ok((await all(lh.subscriptions.activities(subscription.id))).length >= 3);

    const test = await lh.subscriptions.sendTestEvent(subscription.id, { eventType: 'v1.tax-code.created' });
    await receiver.nth(1);
    await t.worker?.recorded(1, test.id);
    const [message] = await all(lh.subscriptions.messages.list(subscription.id));
    assert.equal(message?.id, test.id);
    assert.equal((await lh.subscriptions.messages.get(subscription.id, test.id)).status, 'delivered');
    assert.equal((await all(lh.subscriptions.messages.attempts(subscription.id, test.id))).length, 1);
    await lh.subscriptions.messages.resend(subscription.id, test.id);
    await receiver.nth(2);
    assert.ok((await lh.subscriptions.health(subscription.id)).lastDeliveredAt);
    const recovery = await lh.subscriptions.recover(subscription.id, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    assert.equal(recovery.subscriptionId, subscription.id);
    await lh.subscriptions.delete(subscription.id);
  });

  it('the event feed and the catalogue of event types', async () => {
    const types = await lh.eventTypes.list();
    assert.ok(types.some((type) => type.eventType === 'v1.account.created'));
    const events = await all(lh.events.list({ company_id: companyId, event_types: ['v1.account.created'] }));
    assert.ok(events.length >= 2);
    for (const { payload } of events) {
      assert.equal(payload.eventType, 'v1.account.created');
      if (payload.eventType === 'v1.account.created') assert.equal(payload.data.companyId, companyId);
    }
  });

  it('reached every operation of the document', () => {
    const templates = Object.entries(OPERATIONS).map(([id, { method, path }]) => ({
      id,
      method,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/:]+')}$`),
    }));
    const reached = new Set(
      sent.flatMap(({ method, url }) =>
        templates.filter((op) => op.method === method && op.pattern.test(url.pathname)).map((op) => op.id),
      ),
    );
    const missing = templates.map((op) => op.id).filter((id) => !reached.has(id));
    assert.deepEqual(missing, []);
    assert.ok(
      sent.every((request) => request.status < 400),
      'no call failed',
    );
  });
});
