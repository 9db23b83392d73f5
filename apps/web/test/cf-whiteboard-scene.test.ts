import { WHITEBOARD_MAX_BYTES } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import {
  createChangeGate,
  forSaving,
  fromEditor,
  liveElements,
  mergeScenes,
  sceneSignature,
  sceneTooLarge,
  toBoardScene,
} from '../src/features/conference/whiteboard-scene';
import { element } from './excalidraw-stub';

describe('whiteboard scene (server JSON ⇄ board)', () => {
  it('keeps Excalidraw elements and the background of a stored scene', () => {
    const scene = toBoardScene({
      elements: [element('a'), element('b', 3, { type: 'freedraw' })],
      appState: { viewBackgroundColor: '#fff9db', zoom: 3 },
    });
    expect(scene.elements.map((e) => e.id)).toEqual(['a', 'b']);
    expect(scene.appState).toEqual({ viewBackgroundColor: '#fff9db' });
  });

  it('keeps deleted elements as tombstones but drops images (their files are not stored) and non-elements', () => {
    const scene = toBoardScene({
      elements: [
        element('kept'),
        element('gone', 2, { isDeleted: true }),
        element('picture', 1, { type: 'image', fileId: 'f1' }),
        null,
        'text',
        { id: 'no-version', type: 'rectangle' },
      ],
    });
    expect(scene.elements.map((e) => e.id)).toEqual(['kept', 'gone']);
    // the board shows one; the server stores one
    expect(liveElements(scene).map((e) => e.id)).toEqual(['kept']);
    expect(forSaving(scene).elements.map((e) => e.id)).toEqual(['kept']);
  });

  it('opens a board saved by the former canvas whiteboard (strokes with points, no type) as an empty board', () => {
    const old = { elements: [{ id: 's1', color: '#1c7ed6', width: 3, points: [0.1, 0.1, 0.5, 0.5] }] };
    expect(toBoardScene(old)).toEqual({ elements: [] });
  });

  it('reads a missing or malformed scene as an empty board', () => {
    expect(toBoardScene(null)).toEqual({ elements: [] });
    expect(toBoardScene(undefined)).toEqual({ elements: [] });
    expect(toBoardScene({ elements: 'nope', appState: { viewBackgroundColor: 7 } })).toEqual({ elements: [] });
  });

  it('reduces what the editor reports to the shared scene (deletions travel as tombstones)', () => {
    const editor = [element('a'), element('b', 2, { isDeleted: true })];
    expect(fromEditor(editor, { viewBackgroundColor: '#ffffff' })).toEqual({
      elements: [element('a'), element('b', 2, { isDeleted: true })],
      appState: { viewBackgroundColor: '#ffffff' },
    });
  });

  it('says when a scene is above the server’s limit', () => {
    const small = { elements: [element('a')] };
    const big = { elements: [element('a', 1, { text: 'x'.repeat(WHITEBOARD_MAX_BYTES) })] };
    expect(sceneTooLarge(small)).toBe(false);
    expect(sceneTooLarge(big)).toBe(true);
  });
});

describe('change detection (what is worth sending)', () => {
  const editor = (...els: ReturnType<typeof element>[]) => fromEditor(els, { viewBackgroundColor: '#ffffff' });

  it('passes a change once; the same versions again (pointer moves, selection, scroll) pass nothing', () => {
    const gate = createChangeGate();
    expect(gate.accept(editor(element('a')))).not.toBeNull();
    expect(gate.accept(editor(element('a')))).toBeNull();
    expect(gate.accept(editor(element('a', 1, { x: 999 })))).toBeNull(); // same version: Excalidraw did not change it
  });

  it('passes a new version, a new element, a deletion and a new background', () => {
    const gate = createChangeGate();
    gate.accept(editor(element('a')));
    expect(gate.accept(editor(element('a', 2)))).not.toBeNull();
    expect(gate.accept(editor(element('a', 2), element('b')))).not.toBeNull();
    expect(gate.accept(editor(element('a', 2), element('b', 2, { isDeleted: true })))).not.toBeNull();
    expect(gate.accept(fromEditor([element('a', 2)], { viewBackgroundColor: '#000000' }))).not.toBeNull();
  });

  it('does not pass the echo of a scene shown from outside (loaded or received)', () => {
    const gate = createChangeGate();
    const received = toBoardScene({ elements: [element('r', 4)], appState: { viewBackgroundColor: '#ffffff' } });
    expect(gate.differs(received)).toBe(true);
    gate.mark(received);
    expect(gate.differs(received)).toBe(false);
    expect(gate.accept(editor(element('r', 4)))).toBeNull();
    expect(gate.accept(editor(element('r', 5)))).not.toBeNull();
  });

  it('fingerprints ids and versions in order', () => {
    expect(sceneSignature({ elements: [element('a', 1), element('b', 2)] })).toBe('#ffffff|a:1|b:2');
    expect(sceneSignature({ elements: [], appState: { viewBackgroundColor: '#fff' } })).toBe('#fff');
  });

  it('treats a scene without a background as Excalidraw’s white one (opening an empty board is no change)', () => {
    const gate = createChangeGate();
    gate.mark({ elements: [] });
    expect(gate.accept(editor())).toBeNull();
  });
});

describe('merging a scene from the room', () => {
  const ids = (scene: { elements: { id: string; version: number }[] }) =>
    scene.elements.map((e) => `${e.id}:${e.version}`);

  it('keeps both moderators’ strokes when they draw at the same time', () => {
    const mine = { elements: [element('base', 2), element('mine', 1)] };
    const theirs = { elements: [element('base', 2), element('theirs', 1)] };
    expect(ids(mergeScenes(mine, theirs))).toEqual(['base:2', 'theirs:1', 'mine:1']);
  });

  it('takes the newer version of an element; a late, older scene undoes nothing', () => {
    const mine = { elements: [element('a', 5), element('b', 1)] };
    const late = { elements: [element('a', 3), element('b', 4)] };
    expect(ids(mergeScenes(mine, late))).toEqual(['a:5', 'b:4']);
  });

  it('a deletion (a tombstone with a higher version) removes the element from the board', () => {
    const mine = { elements: [element('a', 1), element('b', 1)] };
    const deleted = { elements: [element('a', 2, { isDeleted: true }), element('b', 1)] };
    const merged = mergeScenes(mine, deleted);
    expect(liveElements(merged).map((e) => e.id)).toEqual(['b']);
    // …and a scene from before the deletion does not bring it back
    expect(
      liveElements(mergeScenes(merged, { elements: [element('a', 1), element('b', 1)] })).map((e) => e.id),
    ).toEqual(['b']);
  });

  it('breaks a tie of versions as Excalidraw does (lower versionNonce) and takes the sender’s background', () => {
    const mine = { elements: [element('a', 2, { versionNonce: 9, x: 1 })], appState: { viewBackgroundColor: '#fff' } };
    const theirs = {
      elements: [element('a', 2, { versionNonce: 3, x: 2 })],
      appState: { viewBackgroundColor: '#000' },
    };
    expect(mergeScenes(mine, theirs)).toEqual(theirs);
    expect(mergeScenes(theirs, mine).elements[0]?.x).toBe(2);
  });
});
