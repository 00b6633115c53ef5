import type { FastifyReply } from 'fastify';
import Type from 'typebox';
import { PAGE_ORDERS } from '../../db/keyset.ts';
import type { Page } from '../../db/keyset-page.ts';
import { sendJsonText } from '../json-text.ts';
import { encodeCursor } from './cursor.ts';
import type { CurrentRequestPagination, PageRequest } from './page-request.ts';

export const PageInfoSchema = Type.Object(
  {
    currentRequestPagination: Type.Object({
      parameters: Type.Record(Type.String(), Type.Array(Type.String())),
      after: Type.Optional(Type.String()),
      before: Type.Optional(Type.String()),
      limit: Type.Optional(Type.Integer()),
      offset: Type.Optional(Type.Integer()),
      sortingKeys: Type.Optional(Type.Array(Type.String())),
      sortingOrder: Type.Optional(Type.Array(Type.String({ enum: [...PAGE_ORDERS] }))),
    }),
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean(),
    startCursor: Type.Optional(Type.String({ description: 'Cursor of the first row; absent on an empty page' })),
    endCursor: Type.Optional(Type.String({ description: 'Cursor of the last row; absent on an empty page' })),
    total: Type.Optional(Type.Integer({ description: 'Rows matching the filters, on every page' })),
  },
  { description: 'Where this page lies in the whole result' },
);

interface PageInfo {
  currentRequestPagination: CurrentRequestPagination;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string;
  endCursor?: string;
  total?: number;
}

function toPageInfo(page: Page, request: PageRequest): PageInfo {
  const { first, last } = page;
  return {
    currentRequestPagination: request.echo,
    hasNextPage: page.hasNextPage,
    hasPreviousPage: page.hasPreviousPage,
    ...(first && { startCursor: encodeCursor(request.fingerprint, first) }),
    ...(last && { endCursor: encodeCursor(request.fingerprint, last) }),
    ...(page.total !== undefined && { total: page.total }),
  };
}

/** Answers 200 with a page envelope, `{ data, pagination }`, the rows as the database wrote them. */
export function sendPage(reply: FastifyReply, page: Page, request: PageRequest): FastifyReply {
  const pagination = JSON.stringify(toPageInfo(page, request));
  return sendJsonText(reply, `{"data":${page.json},"pagination":${pagination}}`);
}
