// One subscription: its settings, delivery health, signing secret, recovery of failed messages, and
// its messages.
import { api } from './api.js';
import { confirmDialog } from './confirm.js';
import { breadcrumbs, field, h, heading, render, uid } from './dom.js';
import { badge, exactTime, localInputValue, timeAgo } from './format.js';
import { whileVisible } from './live.js';
import { messageList, REFRESH_MS } from './message-list.js';
import { problemBlock } from './problem.js';
import { secretPanel } from './secret-panel.js';
import { testEventPanel } from './test-event-panel.js';

/**
 * @param {HTMLElement} root
 * @param {string[]} ids the subscription's, from the route
 */
export function subscriptionView(root, [id]) {
  const top = h('div', {}, h('p', { class: 'muted' }, 'Loading the subscription…'));
  const healthCard = h(
    'section',
    { class: 'card', 'aria-labelledby': 'health-title' },
    h('h2', { id: 'health-title' }, 'Delivery health'),
  );
  const messages = messageList(id);
  // Filled once the subscription, and so its event types, is loaded.
  const testEvent = h('div');
  render(
    root,
    breadcrumbs(['Subscriptions', '#/subscriptions'], 'Subscription'),
    top,
    healthCard,
    testEvent,
    messages.element,
    h('div', { class: 'grid' }, secretPanel(id), recoverPanel(id)),
  );
  let left = false;

  async function load() {
    try {
      const { data } = await api('GET', `v1/subscriptions/${id}`);
      if (left) return;
      render(top, summary(data));
      render(testEvent, testEventPanel(id, data.eventTypes, messages.refresh));
    } catch (problem) {
      if (!left) render(top, heading('Subscription'), problemBlock(problem, load));
    }
  }

  async function loadHealth() {
    try {
      const { data } = await api('GET', `v1/subscriptions/${id}/health`);
      if (!left) render(healthCard, h('h2', { id: 'health-title' }, 'Delivery health'), healthFigures(data));
    } catch {
      // The summary above already says why the subscription cannot be read.
    }
  }

  void load().then(() => top.querySelector('h1')?.focus());
  void loadHealth();
  const stopHealth = whileVisible(loadHealth, REFRESH_MS);
  return () => {
    left = true;
    stopHealth();
    messages.stop();
  };

  function summary(s) {
    async function remove() {
      const yes = await confirmDialog({
        title: 'Delete this subscription?',
        text: `Nothing more is sent to ${s.endpointUrl}, and its messages and their attempts are deleted with it. This cannot be undone.`,
        confirm: 'Delete subscription',
        danger: true,
      });
      if (!yes) return;
      try {
        await api('DELETE', `v1/subscriptions/${id}`);
        location.hash = '#/subscriptions';
      } catch (problem) {
        render(top, summary(s), problemBlock(problem));
      }
    }
    const headers = Object.keys(s.customHeaders);
    return h(
      'div',
      {},
      h(
        'div',
        { class: 'view-head' },
        heading(s.endpointUrl, ' ', badge(h, s.status)),
        h(
          'div',
          { class: 'actions' },
          h('a', { class: 'button', href: `#/subscriptions/${id}/edit` }, 'Edit'),
          h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete…'),
        ),
      ),
      disabledNotice(s),
      h(
        'dl',
        { class: 'facts' },
        fact('Event types', s.eventTypes.join(', ')),
        fact('Endpoint authentication', s.endpointAuth.type === 'BASIC' ? 'HTTP Basic' : 'None'),
        fact('Custom headers', headers.length ? headers.join(', ') : 'None'),
        fact('Rate limit', s.rateLimitPerSecond ? `${s.rateLimitPerSecond} per second` : 'None'),
        fact('Created', exactTime(s.createdAt)),
        fact('Id', h('span', { class: 'mono' }, s.id)),
      ),
    );
  }
}

const fact = (term, value) => h('div', {}, h('dt', {}, term), h('dd', {}, value));

/** Why the service made the subscription INACTIVE, and what to do, or null when it did not. */
function disabledNotice(s) {
  if (!s.statusReason) return null;
  const revoked = s.statusReason === 'CLIENT_REVOKED';
  return h(
    'div',
    { class: 'problem', 'data-testid': 'disabled-reason' },
    h(
      'p',
      { class: 'problem-title' },
      revoked ? 'Disabled: its client was revoked' : 'Disabled by the service: its endpoint kept failing',
      ' ',
      h('span', { class: 'muted small' }, timeAgo(s.updatedAt, h)),
    ),
    revoked
      ? h('p', {}, 'Nothing more is sent to it, and it cannot be made active again.')
      : h(
          'p',
          {},
          'Every attempt failed for too long, so its pending messages were failed and nothing more is sent. Fix the endpoint, ',
          h('a', { href: `#/subscriptions/${s.id}/edit` }, 'edit the subscription'),
          ' to set its status to Active, then recover the failed messages below.',
        ),
  );
}

function healthFigures(health) {
  const failure = health.lastFailure;
  return h(
    'dl',
    { class: 'figures' },
    fact('Last delivery', timeAgo(health.lastDeliveredAt, h)),
    fact(
      'Last failure',
      failure
        ? h(
            'span',
            {},
            timeAgo(failure.at, h),
            h('br'),
            h(
              'span',
              { class: 'reason', 'data-testid': 'last-failure' },
              failure.statusCode ? `HTTP ${failure.statusCode}` : failure.error,
            ),
          )
        : 'None',
    ),
    fact(
      'Consecutive failures',
      health.consecutiveFailures
        ? h(
            'span',
            { class: 'bad' },
            String(health.consecutiveFailures),
            health.failingSince
              ? h('span', { class: 'muted small' }, ' since ', timeAgo(health.failingSince, h))
              : null,
          )
        : '0',
    ),
    fact('Delivered, 24 h', String(health.last24Hours.delivered)),
    fact('Failed messages, 24 h', String(health.last24Hours.failed)),
    fact('Failed attempts, 24 h', String(health.last24Hours.failedAttempts)),
  );
}

/** Queues the failed messages created since a chosen time again (POST …:recover). */
function recoverPanel(id) {
  const since = h('input', {
    id: uid('since'),
    type: 'datetime-local',
    required: true,
    value: localInputValue(new Date(Date.now() - 86_400_000)),
  });
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  async function onsubmit(event) {
    event.preventDefault();
    const when = new Date(since.value);
    if (Number.isNaN(when.getTime())) {
      render(status, h('p', { class: 'bad' }, 'Choose a date and time.'));
      return;
    }
    try {
      const { data } = await api('POST', `v1/subscriptions/${id}:recover`, { since: when.toISOString() });
      render(
        status,
        h(
          'p',
          {},
          data.messages === 0
            ? 'No failed messages since then: nothing to send again.'
            : `${data.messages} failed message${data.messages === 1 ? '' : 's'} queued to be sent again.`,
        ),
      );
    } catch (problem) {
      render(status, problemBlock(problem));
    }
  }
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'recover-title' },
    h('h2', { id: 'recover-title' }, 'Recover failed messages'),
    h(
      'p',
      { class: 'muted' },
      'Send every message that failed since this time again, oldest first, with the same webhook-id.',
    ),
    h(
      'form',
      { onsubmit },
      field('Failed since', since, 'Your local time'),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Recover')),
    ),
    status,
  );
}
