// What the page says when a call fails: what happened, and what to do about it.
import { signOut } from './api.js';
import { h } from './dom.js';

/** Leaves the page signed out; main.js shows the sign-in form. */
export function signOutAndReturn() {
  signOut();
  window.dispatchEvent(new Event('dashboard:signed-out'));
}

/** Headline and advice for a failed call, by its status. */
export function explain(problem) {
  switch (problem.status) {
    case 0:
      return ['The service did not answer', problem.message];
    case 401:
      return ['Your sign-in is no longer accepted', 'The credential expired or was revoked. Sign in again.'];
    case 403:
      return ['This credential may not do that', `${problem.message}. Sign in with a credential that holds the scope.`];
    case 404:
      return ['Not found', 'It was deleted, or this credential cannot see it.'];
    case 429:
      return [
        'Too many requests',
        `Wait ${problem.retryAfter ?? 'a few'} seconds, then try again: the rate limit for this credential was reached.`,
      ];
    default:
      if (problem.status >= 500) return ['The service failed to answer', `${problem.message}. Try again in a moment.`];
      return ['The request was refused', problem.message];
  }
}

/**
 * A block that explains a failed call, with the next step as a button: sign in again (401), or try
 * again (`retry`, when given).
 */
export function problemBlock(problem, retry) {
  const [title, advice] = explain(problem);
  const details = problem.errors.map((e) => h('li', {}, `${e.path ?? e.field ?? ''} ${e.message ?? ''}`.trim()));
  return h(
    'div',
    { class: 'problem', role: 'alert' },
    h('p', { class: 'problem-title' }, `${title}${problem.status ? ` (${problem.status})` : ''}`),
    h('p', {}, advice),
    details.length > 0 && h('ul', {}, details),
    problem.status === 401
      ? h('button', { type: 'button', class: 'primary', onclick: signOutAndReturn }, 'Sign in again')
      : retry && h('button', { type: 'button', onclick: retry }, 'Try again'),
  );
}
