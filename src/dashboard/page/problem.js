// What the page says when a call fails: what happened, and what to do about it.
import { ApiProblem, signOut } from './api.js';
import { h } from './dom.js';

/** Leaves the page signed out; main.js shows the sign-in form. */
export function signOutAndReturn() {
  signOut();
  window.dispatchEvent(new Event('dashboard:signed-out'));
}

/**
 * What a view explains: a failed call, or (status null) a fault in the page's own code.
 * @typedef {Pick<ApiProblem, 'message' | 'errors'> & { status: number | null, retryAfter?: number | null }} Problem
 */

/**
 * A view's caught error as a Problem. A failed call throws an ApiProblem; anything else is the page's
 * own fault (an answer it did not expect), still explained rather than left as "Loading…".
 * @param {unknown} error
 * @returns {Problem}
 */
export function asProblem(error) {
  if (error instanceof ApiProblem) return error;
  return { status: null, message: error instanceof Error ? error.message : String(error), errors: [] };
}

/**
 * Headline and advice for a failed call, by its status.
 * @param {Problem} problem
 * @returns {[string, string]}
 */
export function explain(problem) {
  if (problem.status === null) return ['This page failed', `${problem.message}. Reload the page to try again.`];
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
 * @param {unknown} error what the view caught
 * @param {() => unknown} [retry]
 */
export function problemBlock(error, retry) {
  const problem = asProblem(error);
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
