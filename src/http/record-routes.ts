// The five routes of a company's records that bookkeeping category groups, categories and contra
// accounts each serve: create (201, or 200 for a replay), get, update (PUT), delete and search (filters
// in the body, paging in the query). A resource says its path, scopes, schemas and, per operation, its
// operationId, summary, description and domain function; this file says what every one of them shares.

import type { Static, TSchema } from 'typebox';
import type { Principal, Scope } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import type { SortColumn, SortKey } from '../db/keyset.ts';
import type { Page } from '../db/keyset-page.ts';
import type { App, RouteDeps } from './app.ts';
import { answerWithoutBody } from './content-types.ts';
import { type PageQuery, type PageRequest, parsePageRequest, splitCommaLists } from './pagination/page-request.ts';
import { sendPage } from './pagination/page-response.ts';
import { errorResponses, inUseResponse } from './schemas.ts';

/** What the OpenAPI document says of one operation. */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
}

export interface RecordSchemas<Create extends TSchema, Update extends TSchema, Search extends TSchema> {
  /** `{ data: record }`, the answer of create, get and update. */
  envelope: TSchema;
  /** The path parameter naming one record. */
  idParams: TSchema;
  create: Create;
  update: Update;
  search: Search;
  /** The paging query of the search. */
  searchQuery: TSchema;
  /** The search's answer: a page of records. */
  page: TSchema;
}

export interface RecordRoutes<T, Create extends TSchema, Update extends TSchema, Search extends TSchema, Filters> {
  /** The collection: records at `${base}/:${idParam}`, the search at `${base}:search`. */
  base: string;
  idParam: string;
  tags: string[];
  scopes: { read: Scope; write: Scope };
  schemas: RecordSchemas<Create, Update, Search>;
  create: OperationDoc & {
    /** The descriptions of the 200 (a replay of an identical record) and of the 201. */
    replayed: string;
    created: string;
    run: (db: Database, principal: Principal, input: Static<Create>) => Promise<{ record: T; created: boolean }>;
  };
  get: OperationDoc & { run: (db: Database, principal: Principal, id: string) => Promise<T> };
  update: OperationDoc & { run: (db: Database, principal: Principal, id: string, input: Static<Update>) => Promise<T> };
  delete: OperationDoc & {
    /** The description of the 409 a record in use answers; without it, a delete never conflicts. */
    inUse?: string;
    run: (db: Database, principal: Principal, id: string) => Promise<void>;
  };
  search: OperationDoc & {
    /** Names the search in its cursors' fingerprint. */
    resource: string;
    defaultSort: SortKey[];
    columns: Record<string, SortColumn>;
    /** The normalised filters of a search body; also what its cursors are bound to. */
    filters: (body: Static<Search>) => Filters;
    run: (db: Database, principal: Principal, filters: Filters, page: PageRequest) => Promise<Page>;
  };
}

/** Create, get, update, delete and search of one resource's records at `routes.base`. */
export function registerRecordRoutes<
  T,
  Create extends TSchema,
  Update extends TSchema,
  Search extends TSchema,
  Filters,
>(app: App, { db }: RouteDeps, routes: RecordRoutes<T, Create, Update, Search, Filters>): void {
  const { base, tags, scopes, schemas } = routes;
  const one = `${base}/:${routes.idParam}`;
  const idOf = (params: Record<string, string>) => params[routes.idParam] as string;
  // The bodies below are typed from the schemas that validated them; Fastify's types cannot follow a
  // schema that is a type parameter, hence the casts.

  app.post<{ Body: Static<Create> }>(
    base,
    {
      config: { scope: scopes.write },
      schema: {
        ...doc(routes.create),
        tags,
        body: schemas.create,
        response: {
          200: { ...schemas.envelope, description: routes.create.replayed },
          201: { ...schemas.envelope, description: routes.create.created },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { record, created } = await routes.create.run(db, request.principal, request.body as Static<Create>);
      return reply.status(created ? 201 : 200).send({ data: record });
    },
  );

  app.get<{ Params: Record<string, string> }>(
    one,
    {
      config: { scope: scopes.read },
      schema: {
        ...doc(routes.get),
        tags,
        params: schemas.idParams,
        response: { 200: schemas.envelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await routes.get.run(db, request.principal, idOf(request.params)) }),
  );

  app.put<{ Params: Record<string, string>; Body: Static<Update> }>(
    one,
    {
      config: { scope: scopes.write },
      schema: {
        ...doc(routes.update),
        tags,
        params: schemas.idParams,
        body: schemas.update,
        response: { 200: schemas.envelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await routes.update.run(db, request.principal, idOf(request.params), request.body as Static<Update>),
    }),
  );

  const { inUse } = routes.delete;
  app.delete<{ Params: Record<string, string> }>(
    one,
    {
      config: { scope: scopes.write },
      schema: {
        ...doc(routes.delete),
        tags,
        params: schemas.idParams,
        response: {
          204: { type: 'null', description: 'Deleted' },
          ...errorResponses(404),
          ...(inUse !== undefined && { 409: inUseResponse(inUse) }),
        },
      },
    },
    async (request, reply) => {
      await routes.delete.run(db, request.principal, idOf(request.params));
      return answerWithoutBody(reply, 204);
    },
  );

  const { search } = routes;
  app.post<{ Querystring: PageQuery; Body: Static<Search> }>(
    `${base}::search`,
    {
      config: { scope: scopes.read },
      preValidation: splitCommaLists,
      schema: {
        ...doc(search),
        tags,
        querystring: schemas.searchQuery,
        body: schemas.search,
        response: { 200: schemas.page, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = search.filters(request.body as Static<Search>);
      const page = parsePageRequest(request, {
        resource: search.resource,
        filters,
        defaultSort: search.defaultSort,
        columns: search.columns,
      });
      return sendPage(reply, await search.run(db, request.principal, filters, page), page);
    },
  );
}

/** The operation's own words, in the order the OpenAPI document lists them; no description key without one. */
function doc({ operationId, summary, description }: OperationDoc): OperationDoc {
  return { operationId, summary, ...(description !== undefined && { description }) };
}
