// Create or edit a subscription. PUT replaces the whole subscription (docs/decisions/subscriptions.md),
// so the form always sends every field; a Basic password cannot be read back and is asked again.
import { api } from './api.js';
import { field, h, heading, render, uid } from './dom.js';
import { eventTypeChoices } from './event-type-choices.js';
import { problemBlock } from './problem.js';

/**
 * @param {HTMLElement} root
 * @param {string[]} ids the subscription's when editing, none for a new one
 */
export function subscriptionFormView(root, [id]) {
  const editing = Boolean(id);
  render(root, heading(editing ? 'Edit subscription' : 'New subscription'), h('p', { class: 'muted' }, 'Loading…'));
  let left = false;
  async function load() {
    try {
      const [types, current] = await Promise.all([
        api('GET', 'v1/event-types'),
        editing ? api('GET', `v1/subscriptions/${id}`) : Promise.resolve(null),
      ]);
      if (!left) render(root, form(id, types.data, current?.data));
      root.querySelector('input')?.focus();
    } catch (problem) {
      if (!left) render(root, heading(editing ? 'Edit subscription' : 'New subscription'), problemBlock(problem, load));
    }
  }
  void load();
  return () => {
    left = true;
  };
}

function form(id, eventTypes, current) {
  const url = h('input', {
    id: uid('url'),
    type: 'url',
    required: true,
    value: current?.endpointUrl ?? '',
    placeholder: 'https://example.com/webhooks/ledgerhook',
    spellcheck: 'false',
  });
  const status = h(
    'select',
    { id: uid('status') },
    h('option', { value: 'ACTIVE' }, 'Active: notifications are sent'),
    h('option', { value: 'INACTIVE' }, 'Inactive: nothing is sent'),
  );
  status.value = current?.status ?? 'ACTIVE';
  const types = eventTypeChoices(eventTypes, current?.eventTypes);
  const headers = h('textarea', {
    id: uid('headers'),
    rows: 3,
    spellcheck: 'false',
    placeholder: 'x-api-key: key-of-the-receiver',
  });
  headers.value = Object.entries(current?.customHeaders ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const auth = h(
    'select',
    { id: uid('auth') },
    h('option', { value: 'NONE' }, 'None'),
    h('option', { value: 'BASIC' }, 'HTTP Basic'),
  );
  auth.value = current?.endpointAuth.type ?? 'NONE';
  const username = h('input', { id: uid('username'), autocomplete: 'off' });
  const password = h('input', { id: uid('password'), type: 'password', autocomplete: 'new-password' });
  const basicFields = h(
    'div',
    { class: 'basic' },
    field('User name', username),
    field(
      'Password',
      password,
      current?.endpointAuth.type === 'BASIC'
        ? 'Enter it again: a saved password is never shown or sent back.'
        : undefined,
    ),
  );
  const showBasic = () => {
    basicFields.hidden = auth.value !== 'BASIC';
  };
  auth.addEventListener('change', showBasic);
  showBasic();
  const rate = h('input', {
    id: uid('rate'),
    type: 'number',
    min: 1,
    max: 1000,
    step: 1,
    inputmode: 'numeric',
    value: current?.rateLimitPerSecond ?? '',
    placeholder: 'No limit',
  });
  const problems = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, current ? 'Save changes' : 'Create subscription');

  async function onsubmit(event) {
    event.preventDefault();
    const parsed = parseHeaders(headers.value);
    if (typeof parsed === 'string') {
      render(problems, h('p', { class: 'problem', role: 'alert' }, parsed));
      headers.focus();
      return;
    }
    const body = {
      status: status.value,
      eventTypes: types.chosen(),
      endpointUrl: url.value.trim(),
      customHeaders: parsed,
      endpointAuth:
        auth.value === 'BASIC'
          ? { type: 'BASIC', credentials: { username: username.value, password: password.value } }
          : { type: 'NONE' },
      // Empty removes the limit (the form sends every field: docs/decisions/subscriptions.md).
      rateLimitPerSecond: rate.value === '' ? null : rate.valueAsNumber,
    };
    submit.disabled = true;
    try {
      const saved = await api(current ? 'PUT' : 'POST', current ? `v1/subscriptions/${id}` : 'v1/subscriptions', body);
      location.hash = `#/subscriptions/${saved.data.id}`;
    } catch (problem) {
      render(problems, problemBlock(problem));
      submit.disabled = false;
    }
  }

  return h(
    'section',
    { class: 'card form-card' },
    heading(current ? 'Edit subscription' : 'New subscription'),
    h(
      'form',
      { onsubmit },
      field('Endpoint URL', url, 'Notifications are POSTed here as JSON, signed with the subscription’s secret.'),
      field('Status', status),
      types.element,
      field('Custom headers', headers, 'One “Name: value” per line, sent with every notification.'),
      field('Endpoint authentication', auth),
      basicFields,
      field(
        'Rate limit (per second)',
        rate,
        'The most notifications its endpoint is sent per second, by all workers together; a backlog drains at this rate. Empty for no limit.',
      ),
      problems,
      h(
        'div',
        { class: 'actions' },
        submit,
        h('a', { class: 'button', href: current ? `#/subscriptions/${id}` : '#/subscriptions' }, 'Cancel'),
      ),
    ),
  );
}

/** `Name: value` lines into an object, or what is wrong with a line. */
function parseHeaders(text) {
  const headers = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return `Custom headers, line ${index + 1}: write it as “Name: value”.`;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}
