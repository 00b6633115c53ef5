// The subscriptions the credential reaches, each with its delivery health at a glance.
import { api, withQuery } from './api.js';
import { dataTable, h, heading, render } from './dom.js';
import { badge, timeAgo } from './format.js';
import { pager } from './pager.js';
import { problemBlock } from './problem.js';

const PAGE_SIZE = 20;

export function subscriptionsView(root) {
  const body = h('div', { class: 'list-body' }, h('p', { class: 'muted' }, 'Loading subscriptions…'));
  render(
    root,
    h(
      'div',
      { class: 'view-head' },
      heading('Subscriptions'),
      h('a', { class: 'button primary', href: '#/subscriptions/new' }, 'New subscription'),
    ),
    body,
  );
  let left = false;

  async function load(position = {}) {
    try {
      const page = await api('GET', withQuery('v1/subscriptions', { limit: PAGE_SIZE, ...position }));
      const health = await Promise.all(
        page.data.map((s) =>
          api('GET', `v1/subscriptions/${s.id}/health`).then(
            (r) => r.data,
            () => null,
          ),
        ),
      );
      if (left) return;
      render(body, table(page.data, health), pager('Subscription pages', page.pagination, load));
    } catch (problem) {
      if (!left)
        render(
          body,
          problemBlock(problem, () => load(position)),
        );
    }
  }
  void load();
  return () => {
    left = true;
  };
}

function table(subscriptions, health) {
  if (subscriptions.length === 0) {
    return h(
      'div',
      { class: 'empty' },
      h('p', {}, 'No subscriptions yet.'),
      h('p', { class: 'muted' }, 'Create one to have events POSTed to your endpoint, signed, with retries.'),
      h('a', { class: 'button primary', href: '#/subscriptions/new' }, 'Create a subscription'),
    );
  }
  return dataTable(
    'Subscriptions and their delivery health',
    ['Endpoint', 'Status', 'Event types', 'Last delivery', 'Last failure', 'Failing', '24 h delivered / failed'],
    subscriptions.map((s, i) => [{}, cells(s, health[i])]),
  );
}

/** A subscription's row: health is null when it could not be read. */
function cells(s, health) {
  const failure = health?.lastFailure;
  return [
    h('a', { href: `#/subscriptions/${s.id}`, class: 'endpoint' }, s.endpointUrl),
    s.statusReason
      ? h(
          'span',
          {},
          badge(h, s.status),
          ' ',
          h('span', { class: 'reason' }, s.statusReason === 'CLIENT_REVOKED' ? 'client revoked' : 'endpoint failing'),
        )
      : badge(h, s.status),
    s.eventTypes.join(', '),
    timeAgo(health?.lastDeliveredAt, h),
    failure
      ? h(
          'span',
          {},
          timeAgo(failure.at, h),
          ' ',
          h('span', { class: 'reason' }, failure.statusCode ? `HTTP ${failure.statusCode}` : (failure.error ?? '')),
        )
      : h('span', { class: 'muted' }, 'none'),
    health?.consecutiveFailures
      ? h('span', { class: 'bad' }, `${health.consecutiveFailures} in a row`)
      : h('span', { class: 'muted' }, '0'),
    health ? `${health.last24Hours.delivered} / ${health.last24Hours.failed}` : '—',
  ];
}
