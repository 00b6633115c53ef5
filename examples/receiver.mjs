// A webhook receiver that trusts a notification only once svix has verified its signature. Plain
// ESM JavaScript, so it runs as it is on Node 20 or later, in this repository or in any folder with
// svix installed (`npm init -y && npm install svix`):
//   WEBHOOK_SECRET=whsec_… PORT=3000 node receiver.mjs
// It prints each verified payload as one JSON line and answers 204; a notification it cannot verify
// gets 400, and ledgerhook retries it on its schedule. test/webhooks/receiver-example.test.ts runs it.
import { createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'svix';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret of GET /v1/subscriptions/{id}/secret');
const webhook = new Webhook(secret);

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    // The exact bytes that were signed; verify() also refuses a timestamp more than 5 minutes off.
    const { payload } = webhook.verify(Buffer.concat(chunks).toString('utf8'), {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    // Deduplicate on webhook-id (the same on every retry) before acting on payload.data.
    console.log(JSON.stringify(payload));
    response.writeHead(204).end();
  } catch (error) {
    // A notification that fails verification is refused (400); any other error is this receiver's (500).
    const refused = error instanceof WebhookVerificationError;
    console.error(`${refused ? 'refused' : 'failed'} ${request.headers['webhook-id']}: ${error.message}`);
    response.writeHead(refused ? 400 : 500).end();
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}/`);
});
