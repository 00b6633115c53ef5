// The event types a subscription can carry: each one's schema and an example body, and how a
// receiver verifies the signature.
import { api } from './api.js';
import { h, heading, render } from './dom.js';
import { problemBlock } from './problem.js';
import { VERIFY_SNIPPETS } from './verify-snippets.js';

export function eventTypesView(root) {
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading event types…'));
  render(root, heading('Event types'), verifyPanel(), list);
  let left = false;
  async function load() {
    try {
      const { data } = await api('GET', 'v1/event-types');
      if (!left) render(list, data.map(eventType));
    } catch (problem) {
      if (!left) render(list, problemBlock(problem, load));
    }
  }
  void load();
  return () => {
    left = true;
  };
}

function eventType(t) {
  const code = (label, value) =>
    h('details', {}, h('summary', {}, label), h('pre', { class: 'code', tabindex: 0 }, JSON.stringify(value, null, 2)));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `type-${t.eventType}` },
    h('h2', { id: `type-${t.eventType}`, class: 'mono' }, t.eventType),
    h('p', {}, t.description),
    h('p', { class: 'muted small' }, `${scopesSentence(t.scopes)} · version ${t.version}`),
    code('Example notification body', t.example),
    code('Schema of data', t.dataSchema),
  );
}

function scopesSentence(scopes) {
  return scopes.length === 0 ? 'Needs no scope' : `Needs the scopes ${scopes.join(' and ')}`;
}

/** One tab per language and library (a radio group: arrow keys move between tabs). */
function verifyPanel() {
  const shown = h('pre', { class: 'code', tabindex: 0, 'aria-live': 'polite', 'data-testid': 'verify-code' });
  const choices = VERIFY_SNIPPETS.map((snippet, index) => {
    const id = `verify-${index}`;
    const input = h('input', {
      type: 'radio',
      name: 'verify',
      id,
      checked: index === 0,
      onchange: () => render(shown, snippet.code),
    });
    return h('span', {}, input, h('label', { for: id }, `${snippet.language} · ${snippet.library}`));
  });
  render(shown, VERIFY_SNIPPETS[0]?.code);
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'verify-title' },
    h('h2', { id: 'verify-title' }, 'Verify a notification'),
    h(
      'p',
      { class: 'muted' },
      'Every notification is signed with the subscription’s secret (Standard Webhooks). Check it before trusting the body:',
    ),
    h('fieldset', { class: 'choice' }, h('legend', { class: 'visually-hidden' }, 'Language and library'), choices),
    shown,
  );
}
