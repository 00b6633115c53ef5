// The signing secret: hidden until asked for, copyable, and rotated with a confirmation (the old
// secret keeps signing beside the new one for 24 hours, so receivers can switch without a gap).
import { api } from './api.js';
import { confirmDialog } from './confirm.js';
import { h, render } from './dom.js';
import { problemBlock } from './problem.js';

export function secretPanel(subscriptionId) {
  const value = h('div', { class: 'secret-value' });
  const status = h('p', { class: 'form-status', 'aria-live': 'polite' });
  /** @type {string | null} */
  let secret = null;

  function show() {
    if (!secret) {
      render(
        value,
        h('code', { class: 'masked' }, 'whsec_••••••••••••••••••••••••'),
        h('button', { type: 'button', onclick: reveal }, 'Reveal secret'),
      );
      return;
    }
    const shown = h('code', { class: 'secret', 'data-testid': 'secret' }, secret);
    render(
      value,
      shown,
      h('button', { type: 'button', onclick: () => copy(shown) }, 'Copy'),
      h('button', { type: 'button', onclick: hide }, 'Hide'),
    );
  }

  async function reveal() {
    try {
      secret = (await api('GET', `v1/subscriptions/${subscriptionId}/secret`)).data.secretKey;
      show();
      render(status);
    } catch (problem) {
      render(status, problemBlock(problem, reveal));
    }
  }

  function hide() {
    secret = null;
    show();
    render(status);
  }

  /** @param {HTMLElement} shown the secret's element */
  async function copy(shown) {
    try {
      await navigator.clipboard.writeText(shown.textContent ?? '');
      render(status, 'Copied to the clipboard.');
    } catch {
      // Without clipboard access (an insecure origin, a denied permission): select it for Ctrl+C.
      getSelection()?.selectAllChildren(shown);
      render(status, 'Selected: press Ctrl+C (⌘C) to copy.');
    }
  }

  async function rotate() {
    const yes = await confirmDialog({
      title: 'Rotate the signing secret?',
      text: 'A new secret signs every notification from now on. The current one keeps signing beside it for 24 hours, so update your receiver within that time.',
      confirm: 'Rotate secret',
    });
    if (!yes) return;
    try {
      secret = (await api('POST', `v1/subscriptions/${subscriptionId}/secret:rotate`)).data.secretKey;
      show();
      render(status, 'Rotated. The new secret is shown above; the previous one stays valid for 24 hours.');
    } catch (problem) {
      render(status, problemBlock(problem, rotate));
    }
  }

  show();
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'secret-title' },
    h('h2', { id: 'secret-title' }, 'Signing secret'),
    h('p', { class: 'muted' }, 'Verify every notification with it (see Event types for code).'),
    value,
    h('div', { class: 'actions' }, h('button', { type: 'button', onclick: rotate }, 'Rotate secret…')),
    status,
  );
}
