import { Badge, Tooltip } from '@mantine/core';
import type { ListRow } from '../../api/call-types';

export type CourseItem = ListRow<'get-courses'>;
export type TopicRow = ListRow<'get-course-module-topic-list'>;

/** spec 02 §9: the course list's description is cut to 25 characters plus an ellipsis. */
export function cutDescription(text: string | null | undefined): string {
  if (!text) return '';
  return text.length > 25 ? `${text.slice(0, 25)}...` : text;
}

export const rupees = (n: number) =>
  `₹${n.toLocaleString('en-IN', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

export function formatDuration(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** The state of a topic's video: processing, ready, or failed with its reason. */
export function VideoStatusBadge({ status, error }: { status: TopicRow['video_status']; error?: string | null }) {
  if (status === 'ready')
    return (
      <Badge color="green" variant="light">
        ready
      </Badge>
    );
  if (status === 'processing')
    return (
      <Badge color="blue" variant="light">
        processing
      </Badge>
    );
  return (
    <Tooltip label={error ?? 'failed'} multiline w={280}>
      <Badge color="red" variant="light" title={error ?? undefined}>
        failed
      </Badge>
    </Tooltip>
  );
}
