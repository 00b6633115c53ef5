// Builds DOM nodes. Text always goes in as text nodes and attributes as attribute values: nothing
// here parses a string as HTML (payloads and response bodies are untrusted), and the page's
// Content-Security-Policy (Trusted Types) makes the browser refuse it anywhere else too.

/** @typedef {Node | string | number | false | null | undefined | Child[]} Child */

/**
 * `h('button', { class: 'primary', onclick: save }, 'Save')`. Props starting with `on` add event
 * listeners; `false`, `null` and `undefined` props are left out; children may be nested arrays,
 * strings, numbers, nodes, or null (skipped). The element's type follows the tag (`h('select')` is an
 * `HTMLSelectElement`).
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Record<string, unknown> | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function')
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name === 'value' || name === 'checked') Object.assign(element, { [name]: value });
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {Child[]} children
 */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Replaces everything inside `parent` with `children`.
 * @param {Element} parent
 * @param {...Child} children
 */
export function render(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/** A `<label>` with its control, tied by id, and an optional hint under it. */
export function field(label, control, hint) {
  const hintId = hint ? `${control.id}-hint` : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: control.id }, label),
    control,
    hint && h('p', { class: 'hint', id: hintId }, hint),
  );
}

let nextId = 0;
/** A page-unique id for a control. */
export const uid = (prefix) => `${prefix}-${++nextId}`;

/** The view's heading, focusable so navigation can move focus to it; also the window's title. */
export function heading(text, ...after) {
  document.title = `${text} · ledgerhook`;
  return h('h1', { tabindex: -1 }, text, ...after);
}

/** "Subscriptions / Subscription / Message": each step a [text, href] link, the last plain text. */
export function breadcrumbs(...steps) {
  const last = steps.pop();
  return h(
    'nav',
    { class: 'crumbs', 'aria-label': 'Breadcrumb' },
    steps.map(([text, href]) => [h('a', { href }, text), ' / ']),
    h('span', { 'aria-current': 'page' }, last),
  );
}

/**
 * A table that becomes one card per row at phone width, each cell labelled with its column.
 * `rows` are [attributes of the row, contents of its cells in column order].
 */
export function dataTable(caption, columns, rows, className = '') {
  return h(
    'table',
    { class: `data stack ${className}`.trim() },
    h('caption', { class: 'visually-hidden' }, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((column) => h('th', { scope: 'col' }, column)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map(([attributes, cells]) =>
        h(
          'tr',
          attributes,
          cells.map((content, i) => h('td', { 'data-label': columns[i] }, content)),
        ),
      ),
    ),
  );
}
