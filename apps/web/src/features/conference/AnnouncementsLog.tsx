import { VisuallyHidden } from '@mantine/core';
import type { Announcement } from './use-announcer';

/** The room's news for screen readers (chat, hands, speakers, joins), read out politely. */
export function AnnouncementsLog({ news }: { news: readonly Announcement[] }) {
  return (
    <VisuallyHidden role="log" aria-live="polite" aria-label="Meeting announcements" data-testid="cf-announcements">
      {news.map((n) => (
        <p key={n.id}>{n.text}</p>
      ))}
    </VisuallyHidden>
  );
}
