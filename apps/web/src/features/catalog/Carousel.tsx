import { ActionIcon, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import './carousel.css';

/** spec 01 §9: carousel autoplay every 1500 ms. */
export const CAROUSEL_AUTOPLAY_MS = 1500;

/**
 * A light carousel on CSS scroll-snap (no carousel library in the first bundle): arrows, swipe and
 * keyboard scrolling, autoplay that pauses while hovered or focused and when motion is reduced.
 */
export function Carousel({ label, children }: { label: string; children: ReactNode[] }) {
  const track = useRef<HTMLDivElement>(null);
  const [paused, setPaused] = useState(false);

  const step = (dir: 1 | -1) => {
    const el = track.current;
    if (!el) return;
    const first = el.firstElementChild as HTMLElement | null;
    const width = first ? first.offsetWidth + 16 : el.clientWidth;
    const atEnd = el.scrollLeft + el.clientWidth >= el.scrollWidth - 4;
    if (dir === 1 && atEnd) el.scrollTo({ left: 0 });
    else el.scrollBy({ left: dir * width });
  };

  useEffect(() => {
    const reduced =
      typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (paused || reduced || children.length < 2) return;
    const timer = window.setInterval(() => step(1), CAROUSEL_AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  });

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div ref={track} className="tl-carousel" tabIndex={-1}>
        {children}
      </div>
      {children.length > 1 ? (
        <Group justify="center" gap="xs" mt="xs">
          <ActionIcon variant="default" aria-label={`Previous ${label}`} onClick={() => step(-1)}>
            <IconChevronLeft size={18} />
          </ActionIcon>
          <ActionIcon variant="default" aria-label={`Next ${label}`} onClick={() => step(1)}>
            <IconChevronRight size={18} />
          </ActionIcon>
        </Group>
      ) : null}
    </section>
  );
}
