// The dashboard's frame: header, navigation, and the hash router that picks a view. The route lives
// in the fragment (#/subscriptions/…), which browsers never send to a server: no id or credential
// of the page reaches a request log.
import { credential } from './api.js';
import { h, render } from './dom.js';
import { eventTypesView } from './event-types-view.js';
import { messageView } from './message-view.js';
import { signOutAndReturn } from './problem.js';
import { signInView } from './sign-in-view.js';
import { subscriptionFormView } from './subscription-form-view.js';
import { subscriptionView } from './subscription-view.js';
import { subscriptionsView } from './subscriptions-view.js';

/**
 * A view renders into `root` from the route's captured ids, and may answer a function to call when
 * the page leaves it.
 * @typedef {(root: HTMLElement, ids: string[]) => (() => void) | void} View
 */

/** @type {[RegExp, View, string][]} */
const ROUTES = [
  [/^#\/subscriptions\/new$/, subscriptionFormView, 'subscriptions'],
  [/^#\/subscriptions\/([0-9a-f-]{36})\/edit$/, subscriptionFormView, 'subscriptions'],
  [/^#\/subscriptions\/([0-9a-f-]{36})\/messages\/(msg_[a-z2-7]{26})$/, messageView, 'subscriptions'],
  [/^#\/subscriptions\/([0-9a-f-]{36})$/, subscriptionView, 'subscriptions'],
  [/^#\/event-types$/, eventTypesView, 'event-types'],
  [/^#\/subscriptions$/, subscriptionsView, 'subscriptions'],
];

// Both are in index.html.
const header = /** @type {HTMLElement} */ (document.getElementById('top'));
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
let leaveView = () => {};

function route() {
  leaveView();
  leaveView = () => {};
  const signedIn = credential();
  renderHeader(signedIn);
  if (!signedIn) {
    leaveView = signInView(main) ?? leaveView;
    return;
  }
  const hash = location.hash || '#/subscriptions';
  const found = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!found) {
    location.replace('#/subscriptions');
    return;
  }
  const [pattern, view, section] = found;
  renderHeader(signedIn, section);
  leaveView = view(main, (hash.match(pattern) ?? []).slice(1)) ?? leaveView;
  // Keyboard and screen-reader users start at the new view's heading.
  main.querySelector('h1')?.focus({ preventScroll: false });
}

function renderHeader(signedIn, section) {
  const link = (href, name, text) => h('a', { href, 'aria-current': section === name ? 'page' : false }, text);
  render(
    header,
    h(
      'a',
      { class: 'brand', href: '#/subscriptions' },
      h('img', { src: 'icon.svg', alt: '', width: 24, height: 24 }),
      'ledgerhook',
    ),
    signedIn &&
      h(
        'nav',
        { 'aria-label': 'Sections' },
        link('#/subscriptions', 'subscriptions', 'Subscriptions'),
        link('#/event-types', 'event-types', 'Event types'),
      ),
    signedIn &&
      h(
        'div',
        { class: 'who' },
        h('span', { class: 'muted', title: 'Kept in this tab only (sessionStorage)' }, signedIn.label),
        h('button', { type: 'button', onclick: signOutAndReturn }, 'Sign out'),
      ),
  );
}

window.addEventListener('hashchange', route);
window.addEventListener('dashboard:signed-out', route);
window.addEventListener('dashboard:signed-in', route);
route();
