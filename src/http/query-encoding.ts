import { type ApiError, validationError } from './problem.ts';

/**
 * 400 when the query string's percent-encoding does not decode to UTF-8 (`%FF`, an encoded lone
 * surrogate `%ED%A0%80`), else undefined. Fastify's query parser would read such bytes as U+FFFD,
 * and the page echo would show what was not sent; the path's encoding is checked by the router.
 */
export function queryEncodingError(url: string): ApiError | undefined {
  const start = url.indexOf('?');
  if (start < 0 || url.indexOf('%', start) < 0) return undefined;
  try {
    decodeURIComponent(url.slice(start + 1));
    return undefined;
  } catch {
    const detail = 'The query string is not valid percent-encoded UTF-8';
    return validationError([{ path: '/', message: detail, in: 'query' }], detail);
  }
}
