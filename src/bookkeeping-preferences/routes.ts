import type { App, RouteDeps } from '../http/app.ts';
import { errorResponses } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  BookkeepingPreferencesEnvelope,
  BookkeepingPreferencesQuery,
  BookkeepingPreferencesWriteSchema,
} from './schemas.ts';

const tags = ['Bookkeeping preferences'];
const PATH = '/v1-beta/bookkeeping-preferences';

export function registerBookkeepingPreferenceRoutes(app: App, { db }: RouteDeps): void {
  app.get(
    PATH,
    {
      config: { scope: 'bookkeeping-preferences:read' },
      schema: {
        operationId: 'getBookkeepingPreferences',
        summary: "Get a company's bookkeeping preferences",
        description:
          'Every company has them: until the first PUT they are the defaults (bookkeepingMethod NONE, exportExpensesAsPositiveAmounts false, exportFormat MULTI_LINE, metadata null) with updatedAt null.',
        tags,
        querystring: BookkeepingPreferencesQuery,
        response: { 200: BookkeepingPreferencesEnvelope, ...errorResponses() },
      },
    },
    async (request) => ({ data: await operations.getPreferences(db, request.principal, request.query.companyId) }),
  );

  app.put(
    PATH,
    {
      config: { scope: 'bookkeeping-preferences:write' },
      schema: {
        operationId: 'putBookkeepingPreferences',
        summary: "Store a company's bookkeeping preferences",
        description:
          'Replaces every field (an omitted metadata becomes null), the first time too: 200 with what is stored.',
        tags,
        body: BookkeepingPreferencesWriteSchema,
        response: { 200: BookkeepingPreferencesEnvelope, ...errorResponses() },
      },
    },
    async (request) => ({ data: await operations.putPreferences(db, request.principal, request.body) }),
  );
}
