import { Box, Text } from '@mantine/core';
import { Component, lazy, type ReactNode, Suspense } from 'react';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { type BoardScene, EXCALIDRAW_ASSET_DIR, liveElements } from './whiteboard-scene';

export { type BoardScene, toBoardScene } from './whiteboard-scene';

declare global {
  interface Window {
    /** where Excalidraw loads its fonts from (its default is a public CDN) */
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

/** Excalidraw and its CSS arrive in their own chunks, fetched the first time a whiteboard opens. */
const ExcalidrawBoard = lazy(() => {
  // read by Excalidraw when its fonts load: our own copy (see vite.config.ts), never the CDN
  window.EXCALIDRAW_ASSET_PATH = `${import.meta.env.BASE_URL}${EXCALIDRAW_ASSET_DIR}`;
  return import('./ExcalidrawBoard');
});

export const BOARD_LOAD_ERROR = 'The whiteboard could not be loaded. Check your connection and reload the page.';

class BoardErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorAlert message={BOARD_LOAD_ERROR} /> : this.props.children;
  }
}

interface WhiteboardProps {
  scene: BoardScene;
  readOnly?: boolean;
  /** called when the drawing really changed (elements or background) */
  onChange?: (scene: BoardScene) => void;
  height?: number;
  /** the line above a read-only board */
  viewerHint?: string;
}

/**
 * The whiteboard (Excalidraw, loaded on first use): the moderator draws, everyone else sees the
 * same scene in view mode. `data-elements` counts the shown elements (a hook for tests).
 */
export function Whiteboard({
  scene,
  readOnly = false,
  onChange,
  height = 420,
  viewerHint = 'The host draws here; you see it live.',
}: WhiteboardProps) {
  return (
    <Box
      component="section"
      aria-label={readOnly ? 'Whiteboard (view only)' : 'Whiteboard'}
      data-testid="cf-whiteboard"
      data-elements={liveElements(scene).length}
    >
      {readOnly ? (
        <Text size="sm" c="dimmed" mb={6}>
          {viewerHint}
        </Text>
      ) : null}
      <Box
        h={height}
        pos="relative"
        style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8, overflow: 'hidden' }}
      >
        <BoardErrorBoundary>
          <Suspense fallback={<Loading label="Loading the whiteboard…" />}>
            <ExcalidrawBoard scene={scene} readOnly={readOnly} onChange={onChange} />
          </Suspense>
        </BoardErrorBoundary>
      </Box>
    </Box>
  );
}
