// `/docs`: Swagger UI over the document the API publishes at /openapi.json, under the product's
// name. The UI plugin would load its own copy from /docs/json; one address for the document means
// a reader and a client generator always see the same one, so that copy is not served.
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './app.ts';
import { ApiError } from './problem.ts';

// Runs after the plugin's own initializer and replaces it: the UI reading /openapi.json beside /docs
// (relative, so a path prefix in front of the service keeps working). The base layout, without the
// standalone top bar: its only parts are a field to load another document, which the policy below
// would refuse, and a logo drawn with an inline style, which it refuses too.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: location.pathname.replace(/\\/docs\\/?$/, '') + '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
};
`;

const PLUGIN_COPIES = /^\/docs\/(json|yaml)\/?(\?|$)/;

// The UI runs only its own files, which load no inline script or style: scripts, styles and fonts
// from /docs, images from it or data: URLs (its icons), requests to this service only ("Try it out",
// the document). No framing (clickjacking of "Try it out" with a pasted token), no base or form
// target elsewhere. docs/decisions/tenant-isolation.md, "The API reference page".
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export async function registerApiDocsPage(app: App): Promise<void> {
  // A scope of its own, so that its hook sets the headers on every /docs answer, the plugin's static
  // files included, and on nothing else.
  await app.register(async (docs) => {
    docs.addHook('onRequest', (_request, reply, done) => {
      reply.headers(HEADERS);
      done();
    });
    await registerSwaggerUi(docs);
  });
}

async function registerSwaggerUi(app: App): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: {
      title: 'ledgerhook API',
      js: [{ filename: 'openapi-json.js', content: INITIALIZER }],
    },
    uiHooks: {
      onRequest: (request, _reply, done) => {
        done(
          PLUGIN_COPIES.test(request.url)
            ? new ApiError(
                'ROUTE_NOT_FOUND',
                `No route ${request.method} ${request.url}; the document is at /openapi.json`,
              )
            : undefined,
        );
      },
    },
  });
}
