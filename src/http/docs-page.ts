// `/docs`: Swagger UI over the document the API publishes at /openapi.json, under the product's
// name. The UI plugin would load its own copy from /docs/json; one address for the document means
// a reader and a client generator always see the same one, so that copy is not served.
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './app.ts';
import { ApiError } from './problem.ts';

// Runs after the plugin's own initializer and replaces it: the same UI, reading /openapi.json
// beside /docs (relative, so a path prefix in front of the service keeps working).
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: location.pathname.replace(/\\/docs\\/?$/, '') + '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    validatorUrl: null,
  });
};
`;

const PLUGIN_COPIES = /^\/docs\/(json|yaml)\/?(\?|$)/;

export async function registerApiDocsPage(app: App): Promise<void> {
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
