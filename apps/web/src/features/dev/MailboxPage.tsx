import { Accordion, Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ListRow } from '../../api/call-types';
import { ApiError, apiPost, toFormErrors } from '../../api/client';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { LinkifiedText } from './LinkifiedText';

type OutboxMessage = ListRow<'dev/mailbox'>;

export const MAILBOX_UNAVAILABLE = 'The mailbox is not available in production.';

function newestFirst(a: OutboxMessage, b: OutboxMessage): number {
  return b.created_at.localeCompare(a.created_at) || b.id - a.id;
}

/** /dev/mailbox: the outbox of the embedded mail and SMS adapters, for development. */
export function MailboxPage() {
  const query = useQuery({
    queryKey: ['dev/mailbox'],
    queryFn: () => apiPost('dev/mailbox'),
    select: (data) => [...(data.list ?? [])].sort(newestFirst),
  });

  const unavailable = query.error instanceof ApiError && query.error.status === 404;

  return (
    <Stack gap="md">
      <PageHeader
        title="Dev Mailbox"
        description="E-mails and SMS the server would have sent."
        actions={
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void query.refetch()}
            loading={query.isFetching}
          >
            Refresh
          </Button>
        }
      />
      {query.isLoading ? <LoadingLines lines={4} /> : null}
      {unavailable ? (
        <Alert color="yellow" variant="light">
          {MAILBOX_UNAVAILABLE}
        </Alert>
      ) : query.error ? (
        <ErrorAlert message={toFormErrors(query.error).other_error} />
      ) : null}
      {query.data && !query.data.length ? <EmptyState /> : null}
      {query.data?.length ? (
        <Accordion variant="separated" multiple>
          {query.data.map((m) => (
            <Accordion.Item key={m.id} value={String(m.id)}>
              <Accordion.Control>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Stack gap={0}>
                    <Text fw={600}>{m.subject || '(no subject)'}</Text>
                    <Text size="sm" c="dimmed">
                      To {m.to}
                    </Text>
                  </Stack>
                  <Group gap="xs">
                    <Badge variant="light">{m.channel}</Badge>
                    <Text size="xs" c="dimmed">
                      {new Date(m.created_at).toLocaleString()}
                    </Text>
                  </Group>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <LinkifiedText text={m.text} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      ) : null}
    </Stack>
  );
}
