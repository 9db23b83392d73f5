import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a lazily loaded screen may take to draw its heading before we give up moving focus. */
const HEADING_WAIT_MS = 5_000;

/**
 * After a route change (not the first load) focus moves to the new page's h1, so a screen reader
 * reads where the visitor landed and the keyboard starts from the top of the new content — as a
 * full page load would. A screen that has already focused a field itself keeps it.
 */
export function useFocusHeadingOnNavigate() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return; // the first load: the browser starts at the top itself
    shown.current = pathname;
    // a screen that focused a field itself (autofocus, a dialog) keeps it; anything else, such as
    // the link that was followed or nothing at all, gives way to the heading
    const untouched = () => {
      const now = document.activeElement;
      return !now?.isConnected || !now.matches('input, textarea, select, [contenteditable="true"], [role="dialog"] *');
    };
    const focusHeading = (): boolean => {
      const h1 = document.querySelector<HTMLElement>('h1');
      if (!h1) return false;
      if (untouched()) {
        if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
        h1.focus({ preventScroll: false });
      }
      return true;
    };
    // the old page's h1 may still be in the document for a moment: wait a frame for the new screen
    let observer: MutationObserver | undefined;
    const frame = requestAnimationFrame(() => {
      if (focusHeading()) return;
      observer = new MutationObserver(() => {
        if (focusHeading()) observer?.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    const stop = window.setTimeout(() => observer?.disconnect(), HEADING_WAIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(stop);
      observer?.disconnect();
    };
  }, [pathname]);
}
