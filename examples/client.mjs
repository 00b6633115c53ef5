// The ledgerhook client (@ledgerhook/client, in clients/typescript) from plain JavaScript: keeps a
// few accounts, reads them back, and receives one webhook, verified. Run it in a folder where the
// client is installed (`npm install <the tarball npm pack makes in clients/typescript>`):
//   LEDGERHOOK_URL=http://127.0.0.1:8080 LEDGERHOOK_API_KEY=lhk_… COMPANY_ID=… node client.mjs
// The API key needs accounts:write (walk-through step 1), and the service must be allowed to call
// this machine (WEBHOOK_ALLOW_PRIVATE_TARGETS=true). test/client/packed.test.ts runs it.
import { createServer } from 'node:http';
import { Ledgerhook, verifyWebhook } from '@ledgerhook/client';

const { LEDGERHOOK_URL, LEDGERHOOK_API_KEY, COMPANY_ID: companyId } = process.env;
if (!LEDGERHOOK_URL || !LEDGERHOOK_API_KEY || !companyId) {
  throw new Error('Set LEDGERHOOK_URL, LEDGERHOOK_API_KEY and COMPANY_ID');
}
const lh = new Ledgerhook({ baseUrl: LEDGERHOOK_URL, apiKey: LEDGERHOOK_API_KEY });

// A receiver on 127.0.0.1 for the notification of the first account this creates.
let secret;
let received;
const notification = new Promise((resolve) => {
  received = resolve;
});
const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    // The exact bytes received, the headers as Node gives them, and the subscription's secret.
    const payload = await verifyWebhook(Buffer.concat(chunks), request.headers, secret);
    response.writeHead(204).end();
    received(payload);
  } catch (error) {
    console.error(`refused ${request.headers['webhook-id']}: ${error.message}`);
    response.writeHead(400).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const subscription = await lh.subscriptions.create({
  eventTypes: ['v1.account.created'],
  endpointUrl: `http://127.0.0.1:${server.address().port}/hook`,
});
secret = (await lh.subscriptions.secret(subscription.id)).secretKey;

try {
  // New external ids each run: an identical create would be a replay, and a replay sends no event.
  const run = Date.now().toString(36);
  const cash = await lh.accounts.create({ companyId, externalId: `${run}-1000`, name: 'Cash', archived: false });
  console.log(`created ${cash.externalId} ${cash.name}`);
  await lh.accounts.create({ companyId, externalId: `${run}-1010`, name: 'Bank', archived: false });
  console.log(`got ${(await lh.accounts.get(cash.id)).name}`);
  const names = [];
  // One account a page, to show that iterating follows the pages.
  for await (const account of lh.accounts.search({ companyId }, { limit: 1 })) {
    if (account.externalId.startsWith(run)) names.push(account.name);
  }
  console.log(`listed ${names.join(', ')}`);

  const timeout = setTimeout(() => received(undefined), 30_000);
  const payload = await notification;
  clearTimeout(timeout);
  if (!payload) throw new Error('No notification within 30 s: can the service reach 127.0.0.1?');
  // payload.eventType says what payload.data is: here an account.
  if (payload.eventType === 'v1.account.created') console.log(`verified ${payload.eventType} ${payload.data.name}`);
} finally {
  await lh.subscriptions.delete(subscription.id);
  server.close();
}
