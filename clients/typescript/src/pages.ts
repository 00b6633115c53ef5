// A list of the API as an async iterable over its every item, page after page (each page's
// `endCursor` as the next one's `after`), or one page at a time with its pagination.

/** Where a page starts: after or before a cursor of an earlier page, or at an offset. */
export interface PageCursor {
  after?: string;
  before?: string;
  offset?: number;
}

/** What every page of the API carries. */
export interface PageBody {
  data: readonly unknown[];
  pagination: { hasNextPage: boolean; endCursor?: string };
}

export class PageIterator<Page extends PageBody> implements AsyncIterable<Page['data'][number]> {
  readonly #load: (cursor: PageCursor) => Promise<Page>;

  constructor(load: (cursor: PageCursor) => Promise<Page>) {
    this.#load = load;
  }

  /** One page with its pagination: the first, or the one `cursor` names. */
  page(cursor: PageCursor = {}): Promise<Page> {
    return this.#load(cursor);
  }

  /** Every page, from the first (or from `cursor`) to the last. */
  async *pages(cursor: PageCursor = {}): AsyncGenerator<Page, void, undefined> {
    let next: PageCursor = cursor;
    for (;;) {
      const page = await this.#load(next);
      yield page;
      const { hasNextPage, endCursor } = page.pagination;
      if (!hasNextPage || endCursor === undefined) return;
      next = { after: endCursor };
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Page['data'][number], void, undefined> {
    for await (const page of this.pages()) yield* page.data as Iterable<Page['data'][number]>;
  }
}
