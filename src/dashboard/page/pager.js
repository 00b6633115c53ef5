// Previous / next buttons over the API's cursors (docs/decisions/pagination.md).
import { h } from './dom.js';

/**
 * `position` is { after } or { before } or {}; `pagination` is the API's page info. `go` is called
 * with the position of the page to show.
 */
export function pager(label, pagination, go) {
  const previous = pagination.hasPreviousPage && pagination.startCursor;
  const next = pagination.hasNextPage && pagination.endCursor;
  if (!previous && !next) return null;
  return h(
    'nav',
    { class: 'pager', 'aria-label': label },
    h(
      'button',
      { type: 'button', disabled: !previous, onclick: () => go({ before: pagination.startCursor }) },
      '← Previous',
    ),
    h('button', { type: 'button', disabled: !next, onclick: () => go({ after: pagination.endCursor }) }, 'Next →'),
  );
}
