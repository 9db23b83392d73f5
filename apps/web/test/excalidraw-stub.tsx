import { type ReactNode, useEffect } from 'react';
import { vi } from 'vitest';

/**
 * A stand-in for the third-party `@excalidraw/excalidraw` module (its canvas editor does not run in
 * jsdom). Test files mock the module with it: `vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'))`.
 * It records the props the board passes and offers the imperative API as spies, so a test can play
 * the editor: call `stub.props.onChange(elements, appState)` as Excalidraw would.
 */
interface StubProps {
  onChange?: (elements: readonly Record<string, unknown>[], appState: Record<string, unknown>, files: unknown) => void;
  excalidrawAPI?: (api: unknown) => void;
  viewModeEnabled?: boolean;
  initialData?: { elements?: readonly unknown[]; appState?: Record<string, unknown> };
  UIOptions?: unknown;
  validateEmbeddable?: unknown;
  children?: ReactNode;
}

export const stub = {
  props: null as StubProps | null,
  api: { updateScene: vi.fn(), scrollToContent: vi.fn() },
  reset() {
    stub.props = null;
    stub.api.updateScene.mockClear();
    stub.api.scrollToContent.mockClear();
  },
};

export function Excalidraw(props: StubProps) {
  stub.props = props;
  const { excalidrawAPI } = props;
  useEffect(() => {
    excalidrawAPI?.(stub.api);
  }, [excalidrawAPI]);
  return (
    <div data-testid="excalidraw-stub" data-view-mode={String(Boolean(props.viewModeEnabled))}>
      {props.children}
    </div>
  );
}

const Item = () => null;
export const MainMenu = Object.assign(({ children }: { children?: ReactNode }) => <div>{children}</div>, {
  DefaultItems: { ClearCanvas: Item, SaveAsImage: Item, ChangeCanvasBackground: Item, Help: Item },
});

export const restoreElements = (elements: readonly unknown[] | null | undefined) => [...(elements ?? [])];
export const CaptureUpdateAction = { IMMEDIATELY: 'IMMEDIATELY', NEVER: 'NEVER', EVENTUALLY: 'EVENTUALLY' } as const;

/** An Excalidraw-like element (only what the board looks at, plus a shape). */
export const element = (id: string, version = 1, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'rectangle',
  version,
  versionNonce: version * 7,
  isDeleted: false,
  x: 10,
  y: 20,
  width: 100,
  height: 50,
  ...extra,
});
