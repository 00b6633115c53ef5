/**
 * The URL with each percent-encoded colon of its path (`accounts%3Asearch`, as encodeURIComponent
 * writes it) read as the colon of a custom method (`accounts:search`). Fastify's router matches the
 * encoded form only after a path parameter (`…/messages/{id}%3Aresend`); decoded first, it means
 * the same on every route. No path parameter may hold a colon (ids are uuids), so nothing else changes.
 */
export function decodePathColons(url: string): string {
  const queryStart = url.indexOf('?');
  const pathEnd = queryStart < 0 ? url.length : queryStart;
  const firstEscape = url.indexOf('%3');
  if (firstEscape < 0 || firstEscape >= pathEnd) return url;
  return url.slice(0, pathEnd).replace(/%3a/gi, ':') + url.slice(pathEnd);
}
