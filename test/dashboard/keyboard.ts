// Whether the keyboard alone reaches every control of a view: Tab through the page and compare what
// got focus with every visible, enabled control (radio groups count once: arrows move inside them).
import type { Page } from 'playwright-core';

const CONTROLS = 'a[href], button, input, select, textarea, summary, [tabindex="0"]';

/** The controls of the page that Tab never reached, described for the failure message. */
export async function controlsTabDoesNotReach(page: Page, maxTabs = 150): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const seen of document.querySelectorAll('[data-keyboard-reached]'))
      seen.removeAttribute('data-keyboard-reached');
    delete (window as { keyboardRound?: unknown }).keyboardRound;
  });
  // Until focus comes back to the first control it reached (a date input takes several Tabs, one
  // per part, so the same control twice in a row is not yet a full round).
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const roundDone = await page.evaluate(() => {
      const state = window as { keyboardRound?: { first: Element; last: Element | null } };
      const active = document.activeElement;
      if (!active || active === document.body) return false;
      const round = state.keyboardRound;
      if (!round) state.keyboardRound = { first: active, last: active };
      const done = round !== undefined && active === round.first && round.last !== active;
      if (round) round.last = active;
      active.setAttribute('data-keyboard-reached', '');
      return done;
    });
    if (roundDone) break;
  }
  return page.evaluate((selector) => {
    const missed: string[] = [];
    const reachedGroups = new Set(
      [...document.querySelectorAll<HTMLInputElement>('input[type=radio][data-keyboard-reached]')].map((r) => r.name),
    );
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (!element.checkVisibility({ visibilityProperty: true }) || (element as HTMLButtonElement).disabled) continue;
      if (element instanceof HTMLInputElement && element.type === 'radio' && reachedGroups.has(element.name)) continue;
      if (!element.hasAttribute('data-keyboard-reached')) {
        missed.push(
          `${element.tagName.toLowerCase()} "${(element.textContent || element.getAttribute('aria-label') || element.id).trim()}"`,
        );
      }
    }
    return missed;
  }, CONTROLS);
}

/** Whether the focused element draws a visible focus indicator (an outline). */
export async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return false;
    const style = getComputedStyle(active);
    return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
  });
}
