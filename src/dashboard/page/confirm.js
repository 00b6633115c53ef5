// A modal question (<dialog>: focus is kept inside it, Escape cancels), answered true or false.
import { h } from './dom.js';

export function confirmDialog({ title, text, confirm, danger = false }) {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'confirm-title', class: 'card' },
      h('h2', { id: 'confirm-title' }, title),
      h('p', {}, text),
      h(
        'form',
        { method: 'dialog', class: 'actions' },
        h('button', { value: 'cancel', type: 'submit' }, 'Cancel'),
        h('button', { value: 'confirm', type: 'submit', class: danger ? 'danger' : 'primary' }, confirm),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
