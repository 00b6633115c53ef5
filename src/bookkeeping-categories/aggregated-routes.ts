import type { App, RouteDeps } from '../http/app.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
import { CATEGORIES_PER_GROUP, GROUPS_PER_PAGE, searchAggregatedGroups } from './aggregated-store.ts';
import { toGroupFilters } from './group-operations.ts';
import { GROUP_SORT_COLUMNS } from './group-store.ts';
import { AggregatedPageSchema, AggregatedSearchSchema, GroupSearchQuery } from './schemas.ts';

export function registerAggregatedGroupRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    '/v1-beta/aggregated-bookkeeping-category-groups::search',
    {
      config: { scope: 'bookkeeping-categories:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchAggregatedBookkeepingCategoryGroups',
        summary: 'Search category groups with their categories and accounts',
        description: `Pages of category groups, as the group search picks and sorts them, each with its first ${CATEGORIES_PER_GROUP} categories (by name then id; only those whose archived flag is categoryArchived, when given) and each category's account: what a category picker shows, in one request. hasMoreCategories says when a group has more; the category search lists them. A page ends at limit groups (at most ${GROUPS_PER_PAGE}) or about 1 MiB.`,
        tags: ['Aggregated Bookkeeping Category Groups'],
        querystring: GroupSearchQuery,
        body: AggregatedSearchSchema,
        response: { 200: AggregatedPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = { ...toGroupFilters(request.body), categoryArchived: request.body.categoryArchived ?? null };
      assertCompanyAccess(request.principal, filters.companyId);
      const page = parsePageRequest(request, {
        resource: 'aggregated-bookkeeping-category-groups',
        filters,
        defaultSort: [{ key: 'name', order: 'ASC' }],
        columns: GROUP_SORT_COLUMNS,
      });
      return sendPage(reply, await searchAggregatedGroups(db, filters, page), page);
    },
  );
}
