import { Box, Button, ColorSwatch, Group, Text } from '@mantine/core';
import { IconEraser } from '@tabler/icons-react';
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';

/** One pen stroke; points are x,y pairs as fractions of the board (so any board size shows it). */
export interface Stroke {
  id: string;
  color: string;
  width: number;
  points: number[];
}

export interface BoardScene {
  elements: Stroke[];
}

const COLORS = ['#1c7ed6', '#e03131', '#2f9e44', '#212529'];

/** Reads a scene of the server (opaque JSON) as strokes; anything else is an empty board. */
export function toBoardScene(scene: Record<string, unknown> | null | undefined): BoardScene {
  const elements = Array.isArray(scene?.elements) ? scene.elements : [];
  return {
    elements: elements.filter(
      (e): e is Stroke =>
        typeof e === 'object' &&
        e !== null &&
        Array.isArray((e as Stroke).points) &&
        typeof (e as Stroke).id === 'string',
    ),
  };
}

interface WhiteboardProps {
  scene: BoardScene;
  readOnly?: boolean;
  onChange?: (scene: BoardScene) => void;
  height?: number | string;
}

/**
 * A pointer-drawn whiteboard (the offline fallback for Excalidraw): the moderator draws, learners see
 * the same strokes read-only.
 */
export function Whiteboard({ scene, readOnly, onChange, height = 420 }: WhiteboardProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<Stroke | null>(null);
  /** the strokes before the one being drawn */
  const base = useRef<Stroke[]>([]);
  const [color, setColor] = useState(COLORS[0] as string);

  const paint = useCallback((strokes: Stroke[]) => {
    const el = canvas.current;
    const ctx = el?.getContext?.('2d');
    if (!el || !ctx) return;
    const w = el.clientWidth || 800;
    const h = el.clientHeight || 400;
    if (el.width !== w || el.height !== h) {
      el.width = w;
      el.height = h;
    }
    ctx.clearRect(0, 0, w, h);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const s of strokes) {
      ctx.strokeStyle = s.color;
      ctx.lineWidth = s.width;
      ctx.beginPath();
      for (let i = 0; i + 1 < s.points.length; i += 2) {
        const x = (s.points[i] ?? 0) * w;
        const y = (s.points[i + 1] ?? 0) * h;
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  }, []);

  useEffect(() => {
    paint(scene.elements);
  }, [scene, paint]);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [(e.clientX - r.left) / (r.width || 1), (e.clientY - r.top) / (r.height || 1)];
  };

  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    if (readOnly) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    base.current = scene.elements;
    drawing.current = {
      id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      color,
      width: 3,
      points: point(e),
    };
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    const s = drawing.current;
    if (!s) return;
    s.points.push(...point(e));
    paint([...base.current, s]);
    onChange?.({ elements: [...base.current, { ...s, points: [...s.points] }] });
  };
  const up = () => {
    const s = drawing.current;
    drawing.current = null;
    if (s && s.points.length >= 2) onChange?.({ elements: [...base.current, s] });
  };

  return (
    <Box>
      {readOnly ? (
        <Text size="sm" c="dimmed" mb={6}>
          The host draws here; you see it live.
        </Text>
      ) : (
        <Group gap="xs" mb={6} wrap="wrap">
          {COLORS.map((c) => (
            <ColorSwatch
              key={c}
              color={c}
              component="button"
              type="button"
              aria-label={`Pen colour ${c}`}
              aria-pressed={color === c}
              onClick={() => setColor(c)}
              style={{ cursor: 'pointer', outline: color === c ? '2px solid #868e96' : undefined, outlineOffset: 2 }}
            />
          ))}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconEraser size={14} />}
            onClick={() => onChange?.({ elements: [] })}
          >
            Clear board
          </Button>
        </Group>
      )}
      <canvas
        ref={canvas}
        data-testid="cf-whiteboard"
        data-strokes={scene.elements.length}
        aria-label={readOnly ? 'Whiteboard (view only)' : 'Whiteboard: draw with the pointer'}
        role="img"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerLeave={up}
        style={{
          width: '100%',
          height,
          background: '#fff',
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 8,
          touchAction: 'none',
          cursor: readOnly ? 'default' : 'crosshair',
          display: 'block',
        }}
      />
    </Box>
  );
}
