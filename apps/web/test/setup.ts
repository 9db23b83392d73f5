import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Screens, toasts and dialogs load as chunks of their own: give findBy… time for a busy machine.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs that jsdom does not provide.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  // mantine-datatable asks matchMedia('') for columns without a breakpoint: that one matches. Reduced
  // motion matches too, so Mantine's transitions (the theme honours it) end at once and leave no
  // timer to fire after a test's document is gone.
  value: (query: string) => ({
    matches: query === '' || query === '(prefers-reduced-motion: reduce)',
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};
// mantine-datatable scrolls its viewport back to the top when the records change
window.Element.prototype.scrollTo = () => {};
const { getComputedStyle } = window;
// jsdom does not implement pseudo-element styles, which Mantine asks for
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);

afterEach(() => {
  // the toast store is global: what one test showed must not fill the next test's slots
  notifications.clean();
  notifications.cleanQueue();
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
