import { CaptureUpdateAction, Excalidraw, MainMenu, restoreElements } from '@excalidraw/excalidraw';
import '@excalidraw/excalidraw/index.css';
import './ExcalidrawBoard.css';
import type { ExcalidrawImperativeAPI, ExcalidrawProps, UIOptions } from '@excalidraw/excalidraw/types';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type BoardScene, createChangeGate, DEFAULT_BACKGROUND, fromEditor, liveElements } from './whiteboard-scene';

/**
 * The Excalidraw editor. This module (and Excalidraw with its CSS) is loaded only when a whiteboard
 * opens: Whiteboard.tsx imports it with React.lazy.
 */
export interface ExcalidrawBoardProps {
  /** the scene to show; a new object from outside (loaded, received) replaces what the board shows */
  scene: BoardScene;
  readOnly: boolean;
  /** called when the elements or the background really changed (not on every pointer move) */
  onChange?: (scene: BoardScene) => void;
}

// Nothing here may reach outside the server: no scene files, links or libraries of excalidraw.com.
const UI_OPTIONS: Partial<UIOptions> = {
  canvasActions: {
    loadScene: false,
    saveToActiveFile: false,
    export: false,
    toggleTheme: null,
    saveAsImage: true,
    clearCanvas: true,
    changeViewBackgroundColor: true,
  },
  // pictures would need Excalidraw's separate file store, which the saved scene does not carry
  tools: { image: false },
};

type SceneData = Parameters<ExcalidrawImperativeAPI['updateScene']>[0];

const background = (scene: BoardScene) => ({
  viewBackgroundColor: scene.appState?.viewBackgroundColor ?? DEFAULT_BACKGROUND,
});

export default function ExcalidrawBoard({ scene, readOnly, onChange }: ExcalidrawBoardProps) {
  const [api, setApi] = useState<ExcalidrawImperativeAPI | null>(null);
  const gate = useRef<ReturnType<typeof createChangeGate> | null>(null);
  if (!gate.current) {
    gate.current = createChangeGate();
    gate.current.mark(scene);
  }
  /** scenes this board reported itself: when they come back as the `scene` prop they are not applied */
  const own = useRef(new WeakSet<BoardScene>());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // initialData is read once, on mount
  const [initialData] = useState(() => ({
    elements: scene.elements as unknown as SceneData['elements'],
    appState: background(scene),
    scrollToContent: liveElements(scene).length > 0,
  }));

  // a scene from outside (the moderator's live drawing, a loaded board) replaces ours
  useEffect(() => {
    const g = gate.current;
    if (!api || !g || own.current.has(scene) || !g.differs(scene)) return;
    g.mark(scene);
    api.updateScene({
      elements: restoreElements(scene.elements as unknown as SceneData['elements'], null),
      appState: background(scene),
      captureUpdate: CaptureUpdateAction.NEVER,
    });
  }, [api, scene]);

  // a stable handler: Excalidraw is memoized, a new function would re-render it on every change
  const handleChange = useCallback<NonNullable<ExcalidrawProps['onChange']>>((elements, appState) => {
    const report = onChangeRef.current;
    if (!report) return;
    const next = gate.current?.accept(fromEditor(elements, appState));
    if (!next) return;
    own.current.add(next);
    report(next);
  }, []);

  return (
    <div className="trainlab-board" style={{ height: '100%' }}>
      <Excalidraw
        initialData={initialData}
        excalidrawAPI={setApi}
        onChange={handleChange}
        viewModeEnabled={readOnly}
        theme="light"
        langCode="en"
        UIOptions={UI_OPTIONS}
        validateEmbeddable={false}
        aiEnabled={false}
      >
        {/* our own menu: the default one links to excalidraw.com's social pages */}
        <MainMenu>
          {readOnly ? null : <MainMenu.DefaultItems.ClearCanvas />}
          <MainMenu.DefaultItems.SaveAsImage />
          {readOnly ? null : <MainMenu.DefaultItems.ChangeCanvasBackground />}
          <MainMenu.DefaultItems.Help />
        </MainMenu>
      </Excalidraw>
    </div>
  );
}
