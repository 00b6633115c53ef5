// One message: what it carried (its payload, pretty-printed) and its attempts, newest first, a page
// at a time, with the receiver's answer. Refreshed while visible, so a resend shows its outcome
// without a reload.
import { api, withQuery } from './api.js';
import { breadcrumbs, dataTable, h, heading, render } from './dom.js';
import { badge, duration, exactTime, timeAgo } from './format.js';
import { whileVisible } from './live.js';
import { PAGE_SIZE, REFRESH_MS } from './message-list.js';
import { pager } from './pager.js';
import { problemBlock } from './problem.js';

/**
 * @param {HTMLElement} root
 * @param {string[]} ids the subscription's and the message's, from the route
 */
export function messageView(root, [subscriptionId, messageId]) {
  const base = `v1/subscriptions/${subscriptionId}/messages/${messageId}`;
  const top = h('div', {}, heading(`Message ${messageId}`), h('p', { class: 'muted' }, 'Loading…'));
  const attempts = h(
    'section',
    { class: 'card', 'aria-labelledby': 'attempts-title' },
    h('h2', { id: 'attempts-title' }, 'Attempts'),
  );
  const payload = h(
    'section',
    { class: 'card', 'aria-labelledby': 'payload-title' },
    h('h2', { id: 'payload-title' }, 'Payload'),
  );
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  render(
    root,
    breadcrumbs(['Subscriptions', '#/subscriptions'], ['Subscription', `#/subscriptions/${subscriptionId}`], 'Message'),
    top,
    status,
    attempts,
    payload,
  );
  let left = false;
  let payloadShown = false;
  // Which page of attempts is shown: the newest unless the pager moved it ({ after } or { before }).
  let position = {};

  async function resend() {
    try {
      await api('POST', `${base}:resend`);
      render(
        status,
        h('p', {}, 'Queued: it is sent again now, with the same webhook-id. This page updates by itself.'),
      );
      await load();
    } catch (problem) {
      render(status, problemBlock(problem, resend));
    }
  }

  async function load() {
    try {
      const [{ data: message }, page] = await Promise.all([
        api('GET', base),
        api(
          'GET',
          withQuery(`${base}/attempts`, {
            limit: PAGE_SIZE,
            sorting_keys: 'attempt',
            sorting_order: 'DESC',
            ...position,
          }),
        ),
      ]);
      if (left) return;
      const hadFocus = top.contains(document.activeElement) && document.activeElement?.tagName === 'BUTTON';
      render(top, summary(message, resend));
      if (hadFocus) top.querySelector('button')?.focus();
      render(
        attempts,
        h('h2', { id: 'attempts-title' }, `Attempts (${page.pagination.total})`),
        attemptTable(page.data),
        pager('Attempt pages', page.pagination, (next) => {
          position = next;
          void load();
        }),
      );
      if (!payloadShown) {
        render(
          payload,
          h('h2', { id: 'payload-title' }, 'Payload'),
          h(
            'pre',
            { class: 'code', tabindex: 0, 'aria-label': 'Payload JSON' },
            JSON.stringify(message.payload, null, 2),
          ),
        );
        payloadShown = true;
      }
    } catch (problem) {
      if (!left) render(top, heading(`Message ${messageId}`), problemBlock(problem, load));
    }
  }

  void load();
  const stop = whileVisible(load, REFRESH_MS);
  return () => {
    left = true;
    stop();
  };
}

function summary(m, resend) {
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'view-head' },
      heading(`Message ${m.id}`),
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: resend }, 'Resend')),
    ),
    h(
      'dl',
      { class: 'facts' },
      h('div', {}, h('dt', {}, 'Status'), h('dd', { 'data-testid': 'message-status' }, badge(h, m.status))),
      h('div', {}, h('dt', {}, 'Event type'), h('dd', {}, m.eventType)),
      h('div', {}, h('dt', {}, 'Created'), h('dd', {}, exactTime(m.createdAt))),
      h('div', {}, h('dt', {}, 'Delivered'), h('dd', {}, exactTime(m.deliveredAt))),
      h('div', {}, h('dt', {}, 'Attempts'), h('dd', {}, String(m.attempts))),
      m.nextAttemptAt && h('div', {}, h('dt', {}, 'Next attempt'), h('dd', {}, timeAgo(m.nextAttemptAt, h))),
    ),
  );
}

function attemptTable(list) {
  if (list.length === 0) {
    return h(
      'p',
      { class: 'empty muted' },
      'No attempt yet: the first is made as soon as a worker picks the message up.',
    );
  }
  return dataTable(
    'Attempts, newest first',
    ['#', 'Started', 'Duration', 'Result', 'Response body'],
    list.map((a) => [
      { 'data-attempt': a.attempt },
      [
        String(a.attempt),
        timeAgo(a.startedAt, h),
        duration(a.durationMs),
        [
          h(
            'span',
            { class: a.succeeded ? 'good nowrap' : 'bad nowrap' },
            a.statusCode !== null ? `HTTP ${a.statusCode}` : 'No response',
          ),
          a.error && h('span', { class: 'reason' }, ` ${a.error}`),
          a.retryAfterMs !== null &&
            h('span', { class: 'reason' }, ` asked to wait ${duration(a.retryAfterMs)} (Retry-After)`),
        ],
        a.responseBody
          ? h(
              'pre',
              { class: 'excerpt', tabindex: 0, 'aria-label': `Response body of attempt ${a.attempt}` },
              a.responseBody,
            )
          : h('span', { class: 'muted' }, 'empty'),
      ],
    ]),
    'attempts',
  );
}
