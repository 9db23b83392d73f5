import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { Whiteboard } from '../src/features/conference/Whiteboard';
import type { BoardScene } from '../src/features/conference/whiteboard-scene';
import { element, stub } from './excalidraw-stub';

// only the third-party editor is replaced (its canvas does not run in jsdom)
vi.mock('@excalidraw/excalidraw', () => import('./excalidraw-stub'));

const WHITE = { viewBackgroundColor: '#ffffff' };

function renderBoard(ui: React.ReactNode) {
  return render(
    <Providers queryClient={createQueryClient()} env="test">
      {ui}
    </Providers>,
  );
}

beforeEach(() => stub.reset());

describe('whiteboard (lazy Excalidraw)', () => {
  it('shows the loading state until the editor’s chunk has arrived, then the editor in a labelled region', async () => {
    renderBoard(<Whiteboard scene={{ elements: [element('a')] }} onChange={() => {}} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByTestId('excalidraw-stub')).toHaveAttribute('data-view-mode', 'false');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    const region = screen.getByRole('region', { name: 'Whiteboard' });
    expect(region).toHaveAttribute('data-testid', 'cf-whiteboard');
    expect(region).toHaveAttribute('data-elements', '1');
    expect(stub.props?.initialData?.elements).toEqual([element('a')]);
    // nothing that would reach outside the server: no embeds, no picture files
    expect(stub.props?.validateEmbeddable).toBe(false);
    expect(stub.props?.UIOptions).toMatchObject({ tools: { image: false }, canvasActions: { loadScene: false } });
    expect(window.EXCALIDRAW_ASSET_PATH).toBe('/excalidraw-assets/');
  });

  it('is view-only for viewers, with the hint line', async () => {
    renderBoard(<Whiteboard scene={{ elements: [] }} readOnly />);
    expect(await screen.findByTestId('excalidraw-stub')).toHaveAttribute('data-view-mode', 'true');
    expect(screen.getByRole('region', { name: 'Whiteboard (view only)' })).toHaveAttribute('data-elements', '0');
    expect(screen.getByText('The host draws here; you see it live.')).toBeInTheDocument();
  });

  it('reports only real changes of the drawing, not every onChange of the editor', async () => {
    const onChange = vi.fn();
    renderBoard(<Whiteboard scene={{ elements: [] }} onChange={onChange} />);
    await screen.findByTestId('excalidraw-stub');
    const editorChange = (els: ReturnType<typeof element>[]) => act(() => stub.props?.onChange?.(els, WHITE, {}));
    editorChange([]); // the first render: nothing drawn
    expect(onChange).not.toHaveBeenCalled();
    editorChange([element('a', 1)]);
    editorChange([element('a', 1)]); // pointer move without a change
    editorChange([element('a', 1)]);
    expect(onChange).toHaveBeenCalledTimes(1);
    editorChange([element('a', 2)]);
    editorChange([element('a', 3, { isDeleted: true })]);
    expect(onChange).toHaveBeenCalledTimes(3);
    // the deletion travels as a tombstone; nothing is left on the board
    expect(onChange.mock.calls.map(([s]) => (s as BoardScene).elements.length)).toEqual([1, 1, 1]);
    expect((onChange.mock.calls[2]?.[0] as BoardScene).elements[0]?.isDeleted).toBe(true);
    expect(onChange.mock.calls[0]?.[0]).toEqual({ elements: [element('a', 1)], appState: WHITE });
  });

  it('shows a scene from outside with updateScene, but not its own changes coming back', async () => {
    let setScene: (s: BoardScene) => void = () => {};
    function Host() {
      const [scene, set] = useState<BoardScene>({ elements: [] });
      setScene = set;
      return <Whiteboard scene={scene} onChange={set} />;
    }
    renderBoard(<Host />);
    await screen.findByTestId('excalidraw-stub');

    // drawn here: the scene goes up to the page and comes back as the prop: not applied again
    act(() => stub.props?.onChange?.([element('mine', 1)], WHITE, {}));
    expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '1');
    expect(stub.api.updateScene).not.toHaveBeenCalled();

    // received from the room: replaces the drawing, and its echo in onChange is not reported
    act(() => setScene({ elements: [element('r1'), element('r2')], appState: WHITE }));
    expect(stub.api.updateScene).toHaveBeenCalledTimes(1);
    expect(stub.api.updateScene.mock.calls[0]?.[0]).toMatchObject({
      elements: [element('r1'), element('r2')],
      appState: WHITE,
      captureUpdate: 'NEVER',
    });
    expect(screen.getByTestId('cf-whiteboard')).toHaveAttribute('data-elements', '2');
  });
});
