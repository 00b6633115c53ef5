// Sends a test event to the subscription (POST …:test): one of its event types with the example data
// GET /v1/event-types shows, delivered to this subscription alone and listed with its messages.
import { api } from './api.js';
import { field, h, render, uid } from './dom.js';
import { problemBlock } from './problem.js';

/**
 * @param {string | undefined} id the subscription's, from the route
 * @param {string[]} eventTypes its event types
 * @param {() => void} onSent called once the message is queued (to show it in the list)
 */
export function testEventPanel(id, eventTypes, onSent) {
  const type = h(
    'select',
    { id: uid('test-type') },
    eventTypes.map((eventType) => h('option', { value: eventType }, eventType)),
  );
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  async function onsubmit(event) {
    event.preventDefault();
    try {
      const { data } = await api('POST', `v1/subscriptions/${id}:test`, { eventType: type.value });
      render(
        status,
        h(
          'p',
          { 'data-testid': 'test-event-sent' },
          `A ${data.eventType} test event is queued as message `,
          h('a', { href: `#/subscriptions/${id}/messages/${data.id}`, class: 'mono' }, data.id),
          '.',
        ),
      );
      onSent();
    } catch (problem) {
      render(status, problemBlock(problem));
    }
  }
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'test-event-title' },
    h('h2', { id: 'test-event-title' }, 'Send a test event'),
    h(
      'p',
      { class: 'muted' },
      'Sends an example event of the chosen type to this endpoint only, signed like any message. It belongs to no company: no other subscription and no feed gets it.',
    ),
    h(
      'form',
      { onsubmit },
      field('Event type', type),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Send test event')),
    ),
    status,
  );
}
