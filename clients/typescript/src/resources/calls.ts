// The three shapes every resource method takes: an answer's `data`, no answer, or a list.
import { PageIterator } from '../pages.ts';
import type { OperationId } from '../retries.ts';
import type { OperationArgs, RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Data, ListQuery } from '../types.ts';

export async function data<K extends OperationId>(
  transport: Transport,
  operationId: K,
  args: OperationArgs<K>,
  options?: RequestOptions,
): Promise<Data<K>> {
  const answer = await transport.operation(operationId, args, options);
  return (answer.body as { data: Data<K> }).data;
}

export async function nothing<K extends OperationId>(
  transport: Transport,
  operationId: K,
  args: OperationArgs<K>,
  options?: RequestOptions,
): Promise<void> {
  await transport.operation(operationId, args, options);
}

type Paged = ResponseBody<OperationId> & { pagination: unknown };

/** A list operation's pages: `args` and `query` on every page, the cursor from the page before. */
export function list<K extends OperationId>(
  transport: Transport,
  operationId: K,
  args: Omit<OperationArgs<K>, 'query'>,
  query: ListQuery<K> | undefined,
  options?: RequestOptions,
): PageIterator<Extract<ResponseBody<K>, Paged>> {
  return new PageIterator(async (cursor) => {
    const answer = await transport.operation(
      operationId,
      { ...args, query: { ...query, ...cursor } } as never,
      options,
    );
    return answer.body as Extract<ResponseBody<K>, Paged>;
  });
}
