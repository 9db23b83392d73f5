import { WHITEBOARD_MAX_BYTES } from '@trainlab/contract';

/**
 * The whiteboard scene as the room shares it (opaque JSON): Excalidraw's elements, deleted ones
 * included as tombstones (so that a deletion is not undone by a merge), and the board's background
 * colour. The server stores it without the tombstones (`forSaving`). Nothing here imports Excalidraw, so the main
 * bundle stays free of it; the editor itself is loaded lazily (ExcalidrawBoard.tsx).
 */
export interface BoardElement {
  id: string;
  type: string;
  version: number;
  isDeleted?: boolean;
  [key: string]: unknown;
}

export interface BoardScene {
  elements: BoardElement[];
  appState?: { viewBackgroundColor?: string };
}

export const EMPTY_SCENE: BoardScene = { elements: [] };
/** Excalidraw's background when a scene names none. */
export const DEFAULT_BACKGROUND = '#ffffff';

/**
 * Elements we keep: real Excalidraw elements (a string `id` and `type`, a numeric `version`), deleted
 * ones included. Images are dropped: their pixels live in Excalidraw's separate `files`, which the
 * scene does not carry. Strokes of the former canvas board (`points` and no `type`) are not
 * Excalidraw elements and are dropped too: an old board opens empty.
 */
function isKeptElement(e: unknown): e is BoardElement {
  if (typeof e !== 'object' || e === null) return false;
  const el = e as Partial<BoardElement>;
  return (
    typeof el.id === 'string' && typeof el.type === 'string' && el.type !== 'image' && typeof el.version === 'number'
  );
}

/** The elements the board shows (not the tombstones of deleted ones). */
export const liveElements = (scene: BoardScene) => scene.elements.filter((e) => e.isDeleted !== true);

/** The scene as the server stores it: tombstones are only needed while a room merges live changes. */
export function forSaving(scene: BoardScene): BoardScene {
  return { ...scene, elements: liveElements(scene) };
}

/**
 * Merges a scene received from the room into ours, element by element: the higher version wins
 * (Excalidraw bumps it on every change, deletion included), ties go to the lower versionNonce as in
 * Excalidraw's own collaboration. So two moderators drawing at once both keep their strokes, and a
 * scene that arrives late cannot undo a newer change.
 */
export function mergeScenes(local: BoardScene, remote: BoardScene): BoardScene {
  const mine = new Map(local.elements.map((e) => [e.id, e]));
  const merged: BoardElement[] = [];
  const seen = new Set<string>();
  for (const theirs of remote.elements) {
    const ours = mine.get(theirs.id);
    seen.add(theirs.id);
    merged.push(ours && newer(ours, theirs) ? ours : theirs);
  }
  for (const ours of local.elements) if (!seen.has(ours.id)) merged.push(ours);
  const appState = remote.appState ?? local.appState;
  return appState ? { elements: merged, appState } : { elements: merged };
}

function newer(a: BoardElement, b: BoardElement): boolean {
  if (a.version !== b.version) return a.version > b.version;
  const nonce = (e: BoardElement) => (typeof e.versionNonce === 'number' ? e.versionNonce : 0);
  return nonce(a) < nonce(b);
}

/** Reads a scene of the server (or of a 'whiteboard' message); anything unusable is an empty board. */
export function toBoardScene(scene: Record<string, unknown> | null | undefined): BoardScene {
  const elements = Array.isArray(scene?.elements) ? scene.elements.filter(isKeptElement) : [];
  const appState = scene?.appState as { viewBackgroundColor?: unknown } | undefined;
  const background = typeof appState?.viewBackgroundColor === 'string' ? appState.viewBackgroundColor : undefined;
  return background ? { elements, appState: { viewBackgroundColor: background } } : { elements };
}

/** What Excalidraw's onChange hands us, reduced to what is stored and sent. */
export function fromEditor(
  elements: readonly {
    readonly id: string;
    readonly type: string;
    readonly version: number;
    readonly isDeleted: boolean;
  }[],
  appState: { viewBackgroundColor?: string },
): BoardScene {
  const kept = (elements as readonly unknown[]).filter(isKeptElement);
  return appState.viewBackgroundColor
    ? { elements: kept, appState: { viewBackgroundColor: appState.viewBackgroundColor } }
    : { elements: kept };
}

/**
 * A short fingerprint of what a scene shows: each element's id and version (Excalidraw bumps the
 * version on every change of an element) and the background. Two scenes with the same fingerprint
 * look the same, so nothing needs to be sent.
 */
export function sceneSignature(scene: BoardScene): string {
  let s = scene.appState?.viewBackgroundColor ?? DEFAULT_BACKGROUND;
  for (const e of scene.elements) s += `|${e.id}:${e.version}`;
  return s;
}

/**
 * Decides which editor changes are worth sending. Excalidraw calls onChange on every render and
 * pointer move (also when only the selection or the scroll changes, and after we apply a remote
 * scene); only a change of the elements or the background passes.
 */
export function createChangeGate() {
  let last: string | null = null;
  return {
    /** the scene to send when it differs from the last one seen, else null */
    accept(scene: BoardScene): BoardScene | null {
      const sig = sceneSignature(scene);
      if (sig === last) return null;
      last = sig;
      return scene;
    },
    /** a scene shown from outside (loaded or received): its echo in onChange is not a change */
    mark(scene: BoardScene) {
      last = sceneSignature(scene);
    },
    /** whether this scene differs from the one last seen */
    differs(scene: BoardScene) {
      return sceneSignature(scene) !== last;
    },
  };
}

/** The server refuses scenes above WHITEBOARD_MAX_BYTES (serialized). */
export function sceneTooLarge(scene: BoardScene): boolean {
  return JSON.stringify(scene).length > WHITEBOARD_MAX_BYTES;
}

/** Where the web build serves Excalidraw's fonts (copied there by the Vite plugin in vite.config.ts). */
export const EXCALIDRAW_ASSET_DIR = 'excalidraw-assets/';
