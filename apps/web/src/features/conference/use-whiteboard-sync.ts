import { notifications } from '@mantine/notifications';
import type { ConferenceRoomKind } from '@trainlab/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { apiPost } from '../../api/client';
import type { RtcClientLike } from './rtc-client';
import {
  type BoardScene,
  EMPTY_SCENE,
  forSaving,
  liveElements,
  mergeScenes,
  sceneTooLarge,
  toBoardScene,
} from './whiteboard-scene';

const SEND_EVERY_MS = 250;
const SAVE_AFTER_MS = 1500;

/**
 * The room's whiteboard: live (throttled) to the room, saved (debounced) with the training. The board
 * reports only real changes of the drawing (Excalidraw's onChange also fires on pointer moves and
 * scrolls). A take call's board is shared live but not saved (it belongs to no training).
 */
export function useWhiteboardSync({
  slug,
  room,
  client,
}: {
  slug: string;
  room?: ConferenceRoomKind;
  client: RefObject<RtcClientLike | null>;
}) {
  const [open, setOpen] = useState(false);
  const [board, setBoard] = useState<BoardScene>(EMPTY_SCENE);
  const lastSent = useRef(0);
  const sendTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestBoard = useRef<BoardScene>(board);
  const warnedTooLarge = useRef(false);

  const onChange = (scene: BoardScene) => {
    setBoard(scene);
    latestBoard.current = scene;
    if (sceneTooLarge(scene)) {
      // the server refuses it: say so once instead of failing on every stroke
      if (!warnedTooLarge.current) {
        warnedTooLarge.current = true;
        notifications.show({
          color: 'red',
          message: 'The whiteboard is too large to share or save (512 KB). Remove some drawings.',
        });
      }
      return;
    }
    warnedTooLarge.current = false;
    const send = () => {
      lastSent.current = Date.now();
      sendTimer.current = null;
      client.current?.send({ type: 'whiteboard', scene: { ...latestBoard.current } });
    };
    const wait = SEND_EVERY_MS - (Date.now() - lastSent.current);
    if (wait <= 0) send();
    else if (!sendTimer.current) sendTimer.current = setTimeout(send, wait);
    if (saveTimer.current) clearTimeout(saveTimer.current);
    if (room === 'take-call') return;
    saveTimer.current = setTimeout(() => {
      // spread, as the room's message is: the call takes a plain record, which an interface is not to the typecheck
      void apiPost('save-whiteboard', { slug, scene: { ...forSaving(latestBoard.current) } }).catch(() => {
        notifications.show({ color: 'red', message: 'The whiteboard could not be saved.' });
      });
    }, SAVE_AFTER_MS);
  };
  useEffect(
    () => () => {
      if (sendTimer.current) clearTimeout(sendTimer.current);
      if (saveTimer.current) clearTimeout(saveTimer.current);
    },
    [],
  );

  /** a moderator's board from the room */
  const receive = (scene: Record<string, unknown>) => {
    // merged, not replaced: another moderator's strokes and ours both stay; late scenes undo nothing
    const next = mergeScenes(latestBoard.current, toBoardScene(scene));
    latestBoard.current = next;
    setBoard(next);
    setOpen(true);
  };

  const toggle = async () => {
    if (open) {
      setOpen(false);
      return;
    }
    setOpen(true);
    if (room === 'take-call') return;
    try {
      const saved = await apiPost('get-whiteboard', { slug });
      const stored = toBoardScene(saved.success.scene);
      // the saved board, unless something was drawn (or received) meanwhile
      if (liveElements(stored).length > 0 && latestBoard.current.elements.length === 0) {
        latestBoard.current = stored;
        setBoard((b) => (b.elements.length === 0 ? stored : b));
      }
    } catch {
      // a fresh board
    }
  };

  return { open, board, onChange, receive, toggle };
}
