// Sign-in with the integration's own credential: an API key, a client id and secret (exchanged at
// /oauth/token), or a bearer token. The page then sees exactly what that credential may see.
import { signIn } from './api.js';
import { field, h, heading, render, uid } from './dom.js';
import { asProblem, explain } from './problem.js';

/** @type {[import('./api.js').CredentialKind, string][]} */
const KINDS = [
  ['apiKey', 'API key'],
  ['client', 'Client id and secret'],
  ['token', 'Bearer token'],
];

// What a refused credential means, per kind: the first thing to check.
const REFUSED = {
  apiKey:
    'This API key was not accepted. Check that you copied all of it (it starts with lhk_) and that it was not revoked.',
  client: 'The client id or secret was not accepted. Check both, and that the client was not revoked.',
  token: 'This token was not accepted: it may have expired, or was issued for another deployment.',
};

export function signInView(root) {
  /** @type {import('./api.js').CredentialKind} */
  let kind = 'apiKey';
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  const inputs = {
    secret: h('input', {
      id: uid('secret'),
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      required: true,
    }),
    clientId: h('input', { id: uid('client-id'), autocomplete: 'off', spellcheck: 'false', required: true }),
    clientSecret: h('input', { id: uid('client-secret'), type: 'password', autocomplete: 'off', required: true }),
  };
  const fields = h('div');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');

  function showFields() {
    if (kind === 'client') {
      render(fields, field('Client id', inputs.clientId), field('Client secret', inputs.clientSecret));
    } else {
      render(
        fields,
        field(
          kind === 'apiKey' ? 'API key' : 'Bearer token',
          inputs.secret,
          kind === 'apiKey'
            ? 'Made with `ledgerhook clients create` or `ledgerhook api-keys create`.'
            : 'An access token (JWT) for this service.',
        ),
      );
    }
  }

  async function onsubmit(event) {
    event.preventDefault();
    submit.disabled = true;
    render(status, h('p', { class: 'muted' }, 'Checking…'));
    try {
      await signIn(kind, {
        secret: inputs.secret.value,
        clientId: inputs.clientId.value,
        clientSecret: inputs.clientSecret.value,
      });
      window.dispatchEvent(new Event('dashboard:signed-in'));
    } catch (error) {
      const problem = asProblem(error);
      const [title, advice] = explain(problem);
      const message = problem.status === 401 || problem.status === 400 ? REFUSED[kind] : advice;
      render(
        status,
        h(
          'div',
          { class: 'problem', role: 'alert' },
          h('p', { class: 'problem-title' }, problem.status === 401 ? 'Not signed in' : title),
          h('p', {}, message),
        ),
      );
      submit.disabled = false;
    }
  }

  const choice = h(
    'fieldset',
    { class: 'choice' },
    h('legend', {}, 'Sign in with'),
    KINDS.map(([value, label]) => {
      const id = uid(`kind-${value}`);
      return h(
        'span',
        {},
        h('input', {
          type: 'radio',
          name: 'kind',
          id,
          value,
          checked: value === kind,
          onchange: () => {
            kind = value;
            render(status);
            showFields();
          },
        }),
        h('label', { for: id }, label),
      );
    }),
  );

  showFields();
  render(
    root,
    h(
      'section',
      { class: 'sign-in card' },
      heading('Sign in to your deliveries'),
      h(
        'p',
        { class: 'muted' },
        'Use your integration’s own credential. It stays in this browser tab only and is forgotten when you sign out or close the tab.',
      ),
      h('form', { onsubmit, novalidate: false }, choice, fields, h('div', { class: 'actions' }, submit), status),
    ),
  );
}
