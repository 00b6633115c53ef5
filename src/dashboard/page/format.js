// How times, durations and statuses read on the page.

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
/** @type {[number, Intl.RelativeTimeFormatUnit][]} */
const STEPS = [
  [60, 'second'],
  [60, 'minute'],
  [24, 'hour'],
  [30, 'day'],
  [12, 'month'],
  [Infinity, 'year'],
];

/** "3 minutes ago"; the exact time is the element's title and datetime. */
export function timeAgo(iso, h) {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  let amount = (date.getTime() - Date.now()) / 1000;
  /** @type {Intl.RelativeTimeFormatUnit} */
  let unit = 'second';
  for (const [size, name] of STEPS) {
    unit = name;
    if (Math.abs(amount) < size) break;
    amount /= size;
  }
  return h('time', { datetime: iso, title: absolute.format(date) }, relative.format(Math.round(amount), unit));
}

export const exactTime = (iso) => (iso ? absolute.format(new Date(iso)) : '—');

export function duration(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A status as a coloured badge; the word itself carries the meaning, the colour only repeats it. */
export function badge(h, status) {
  return h('span', { class: `badge badge-${String(status).toLowerCase()}` }, String(status));
}

/** The value of a `<input type="datetime-local">` for `date`, in local time. */
export function localInputValue(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
