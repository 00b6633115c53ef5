// A subscription's messages, newest first, filtered by status, paged with the API's cursors, and
// refreshed every few seconds while the page is visible.
import { api, withQuery } from './api.js';
import { dataTable, field, h, render, uid } from './dom.js';
import { badge, timeAgo } from './format.js';
import { whileVisible } from './live.js';
import { pager } from './pager.js';
import { problemBlock } from './problem.js';

export const PAGE_SIZE = 25;
export const REFRESH_MS = 3000;

export function messageList(subscriptionId) {
  let status = '';
  let position = {};
  const filter = h(
    'select',
    {
      id: uid('status'),
      onchange: () => {
        status = filter.value;
        position = {};
        void load();
      },
    },
    [
      ['', 'All'],
      ['pending', 'Pending'],
      ['delivered', 'Delivered'],
      ['failed', 'Failed'],
    ].map(([value, label]) => h('option', { value }, label)),
  );
  const updated = h('p', { class: 'muted live', 'data-testid': 'updated' });
  const body = h('div', { class: 'list-body', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading messages…'));
  let stopped = false;

  // A filter or page change and a refresh may overlap: only the latest request's answer is shown.
  let latest = 0;
  async function load() {
    const request = ++latest;
    const started = performance.now();
    try {
      const page = await api(
        'GET',
        withQuery(`v1/subscriptions/${subscriptionId}/messages`, {
          limit: PAGE_SIZE,
          sorting_keys: 'createdAt',
          sorting_order: 'DESC',
          status,
          ...position,
        }),
      );
      if (stopped || request !== latest) return;
      // Keep the focused row's link focused across a refresh.
      const focusedId = document.activeElement?.closest('[data-message]')?.getAttribute('data-message');
      render(
        body,
        table(subscriptionId, page.data, status),
        pager('Message pages', page.pagination, (next) => {
          position = next;
          void load();
        }),
      );
      body.setAttribute('aria-busy', 'false');
      body.dataset.loadMs = String(Math.round(performance.now() - started));
      if (focusedId) /** @type {HTMLElement | null} */ (body.querySelector(`[data-message="${focusedId}"] a`))?.focus();
      render(updated, `Live: updated ${new Date().toLocaleTimeString()}, refreshes every ${REFRESH_MS / 1000} s`);
    } catch (problem) {
      if (!stopped && request === latest) render(body, problemBlock(problem, load));
    }
  }

  void load();
  const stopRefresh = whileVisible(load, REFRESH_MS);
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': 'messages-title' },
    h('div', { class: 'section-head' }, h('h2', { id: 'messages-title' }, 'Messages'), field('Status', filter)),
    updated,
    body,
  );
  return {
    element,
    /** Loads the page shown again now, instead of at the next refresh. */
    refresh: () => void load(),
    stop() {
      stopped = true;
      stopRefresh();
    },
  };
}

function table(subscriptionId, messages, status) {
  if (messages.length === 0) {
    return h(
      'div',
      { class: 'empty' },
      h('p', {}, status ? `No ${status} messages.` : 'No messages yet.'),
      h(
        'p',
        { class: 'muted' },
        status
          ? 'Choose “All” to see every message.'
          : 'A message appears here when an event this subscription listens to happens.',
      ),
    );
  }
  return dataTable(
    'Messages, newest first',
    ['Created', 'Event type', 'Webhook id', 'Status', 'Attempts', 'Delivered'],
    messages.map((m) => [
      { 'data-message': m.id },
      [
        timeAgo(m.createdAt, h),
        m.eventType,
        h('a', { href: `#/subscriptions/${subscriptionId}/messages/${m.id}`, class: 'mono' }, m.id),
        [
          badge(h, m.status),
          m.status === 'pending' && m.nextAttemptAt
            ? h('span', { class: 'muted small' }, ' next ', timeAgo(m.nextAttemptAt, h))
            : null,
        ],
        String(m.attempts),
        timeAgo(m.deliveredAt, h),
      ],
    ]),
    'messages',
  );
}
