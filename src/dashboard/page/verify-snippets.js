// How a receiver verifies a notification, in a few lines per language and library. Each verifies
// the raw body exactly as received (parsing first changes the bytes), refuses a timestamp more than
// 5 minutes off, and accepts any of the signatures (two while a rotated secret overlaps). svix and
// standardwebhooks share one interface, so each language's code differs only in its import.

const typescript = (library) => `import { Webhook } from '${library}';

const wh = new Webhook(process.env.WEBHOOK_SECRET!); // whsec_…
// rawBody: the request body as received, not re-serialised JSON
const { payload } = wh.verify(rawBody, {
  'webhook-id': headers['webhook-id'],
  'webhook-timestamp': headers['webhook-timestamp'],
  'webhook-signature': headers['webhook-signature'],
}) as { payload: { eventType: string; data: unknown } }; // throws if forged`;

const python = (importLine) => `import os
${importLine}

wh = Webhook(os.environ["WEBHOOK_SECRET"])  # whsec_…
# raw_body: the request body bytes as received; headers: the request headers
body = wh.verify(raw_body, headers)  # raises if forged
payload = body["payload"]`;

const go = (importLine, name) => `import ${importLine}

wh, err := ${name}.NewWebhook(os.Getenv("WEBHOOK_SECRET")) // whsec_…
body, _ := io.ReadAll(r.Body)
if err := wh.Verify(body, r.Header); err != nil {
	http.Error(w, "bad signature", http.StatusBadRequest)
	return
}`;

export const VERIFY_SNIPPETS = [
  { language: 'TypeScript', library: 'svix', code: typescript('svix') },
  { language: 'TypeScript', library: 'standardwebhooks', code: typescript('standardwebhooks') },
  { language: 'Python', library: 'svix', code: python('from svix.webhooks import Webhook') },
  { language: 'Python', library: 'standardwebhooks', code: python('from standardwebhooks import Webhook') },
  { language: 'Go', library: 'svix', code: go('svix "github.com/svix/svix-webhooks/go"', 'svix') },
  {
    language: 'Go',
    library: 'standardwebhooks',
    code: go('standardwebhooks "github.com/standard-webhooks/libraries/go"', 'standardwebhooks'),
  },
];
