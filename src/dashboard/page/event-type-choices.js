// The subscription form's event types, one group per resource (`v1.<resource>.<verb>`), each with a
// box that takes or leaves the whole group: with every change an event, the list is long.
import { h, uid } from './dom.js';

/**
 * @param {{ eventType: string, description: string }[]} eventTypes as GET /v1/event-types lists them
 * @param {string[] | undefined} chosen the subscription's types when editing
 * @returns {{ element: HTMLElement, chosen(): string[] }}
 */
export function eventTypeChoices(eventTypes, chosen) {
  /** @type {HTMLInputElement[]} */
  const boxes = [];
  const groups = [...groupByResource(eventTypes)].map(([resource, types]) => {
    const members = types.map((t) => {
      const box = /** @type {HTMLInputElement} */ (
        h('input', {
          type: 'checkbox',
          id: uid('type'),
          value: t.eventType,
          checked: chosen ? chosen.includes(t.eventType) : eventTypes.length === 1,
        })
      );
      boxes.push(box);
      return box;
    });
    const all = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: uid('group') }));
    const showGroup = () => {
      const checked = members.filter((box) => box.checked).length;
      all.checked = checked === members.length;
      all.indeterminate = checked > 0 && checked < members.length;
    };
    all.addEventListener('change', () => {
      for (const box of members) box.checked = all.checked;
      showGroup();
    });
    for (const box of members) box.addEventListener('change', showGroup);
    showGroup();
    return h(
      'fieldset',
      { class: 'type-group' },
      h('legend', { class: 'mono' }, resource),
      members.length > 1 && checkRow(all, h('span', {}, `All ${resource} events`)),
      members.map((box, index) =>
        checkRow(
          box,
          h('span', { class: 'mono' }, box.value),
          h('span', { class: 'muted small' }, ` ${types[index]?.description ?? ''}`),
        ),
      ),
    );
  });
  return {
    element: h('fieldset', {}, h('legend', {}, 'Event types'), groups),
    chosen: () => boxes.filter((box) => box.checked).map((box) => box.value),
  };
}

/**
 * @param {HTMLInputElement} box
 * @param {...(Node | string | false)} label
 */
function checkRow(box, ...label) {
  return h('div', { class: 'check' }, box, h('label', { for: box.id }, ...label));
}

/**
 * The types by their resource, in the order the registry lists them.
 * @template {{ eventType: string }} T
 * @param {T[]} eventTypes
 */
function groupByResource(eventTypes) {
  /** @type {Map<string, T[]>} */
  const groups = new Map();
  for (const type of eventTypes) {
    const resource = type.eventType.split('.')[1] ?? type.eventType;
    groups.set(resource, [...(groups.get(resource) ?? []), type]);
  }
  return groups;
}
