/**
 * The way out of a remote desktop or terminal, which otherwise keep every key (Tab included) for the
 * remote machine: Shift+Escape moves focus back to the page, on its heading.
 */
export const LEAVE_HINT = 'Press Shift+Escape to leave the lab screen and return to the page.';

export const isLeaveKey = (e: KeyboardEvent) => e.type === 'keydown' && e.key === 'Escape' && e.shiftKey;

export function focusPage() {
  const h1 = document.querySelector<HTMLElement>('h1');
  if (!h1) return;
  if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
  h1.focus();
}
