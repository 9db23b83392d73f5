import { lazy, Suspense, useSyncExternalStore } from 'react';

/**
 * A Yes/No confirmation before a destructive or important action. The dialog (Mantine's Modal) is
 * loaded only when the first confirmation opens, so pages that never ask carry none of it.
 */
export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel?: () => void;
}

let current: ConfirmRequest | null = null;
/** What had focus when the dialog opened: focus goes back there when it closes (WCAG 2.4.3). */
let opener: HTMLElement | null = null;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function confirmAction(opts: ConfirmRequest) {
  if (!current) opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  current = opts;
  emit();
}

export function closeConfirm() {
  current = null;
  emit();
  // the dialog is unmounted, not hidden, so Mantine's own focus return does not run
  const back = opener;
  opener = null;
  if (back) requestAnimationFrame(() => (back.isConnected ? back : document.querySelector<HTMLElement>('h1'))?.focus());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));

/** Mounted once at the root: shows the open confirmation, if any. */
export function ConfirmHost() {
  const request = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog request={request} onClose={closeConfirm} />
    </Suspense>
  );
}
