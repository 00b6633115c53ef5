// A client syncing a chart of accounts walks the pages one after the other: each request asks for the
// page after the one it just read, so, unlike the repeated page of the other scenarios, every request
// reads rows (and heap pages) that no recent request read. The walkers start at evenly spread depths
// and each connection takes the next idle walker, so ten connections walk ten stretches at once.
import type { LoadRequest } from './load.ts';

interface Walker {
  start: string | undefined;
  cursor: string | undefined;
}

/** autocannon's per-request context: set before the request is sent, read when its answer comes. */
interface WalkContext {
  walker: Walker;
}

const END_CURSOR = '"endCursor":"';

/**
 * Requests that walk the pages from each of `starts` (a cursor, or undefined for the first page),
 * back to its start after the last page; `pageAfter` builds the request of the page after a cursor.
 */
export function pageWalk(
  starts: (string | undefined)[],
  pageAfter: (cursor: string | undefined) => LoadRequest,
): LoadRequest[] {
  const idle = starts.map(newWalker);
  let revived = 0;
  return [
    {
      ...pageAfter(undefined),
      setupRequest: (_request, context) => {
        // A walker whose answer never came (the run ended first) is gone: another starts over.
        const walker = idle.shift() ?? newWalker(starts[revived++ % starts.length]);
        (context as WalkContext).walker = walker;
        return pageAfter(walker.cursor);
      },
      onResponse: (status, body, context) => {
        const { walker } = context as WalkContext;
        if (status === 200) walker.cursor = nextCursor(body) ?? walker.start;
        idle.push(walker);
      },
    },
  ];
}

function newWalker(start: string | undefined): Walker {
  return { start, cursor: start };
}

/** The page's endCursor when there is a next page: the pagination object ends the body. */
function nextCursor(body: string): string | undefined {
  if (body.includes('"hasNextPage":false')) return undefined;
  const at = body.lastIndexOf(END_CURSOR);
  if (at < 0) return undefined;
  const from = at + END_CURSOR.length;
  return body.slice(from, body.indexOf('"', from));
}
