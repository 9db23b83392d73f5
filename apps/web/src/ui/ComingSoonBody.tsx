import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { PageHeader } from './PageHeader';

/** The body of a page whose screen arrives in a later issue: its route, guard and menu entry exist. */
export function ComingSoonBody({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="xs">
          <ThemeIcon variant="light" size="xl" radius="xl" aria-hidden>
            <IconTools size={24} />
          </ThemeIcon>
          <Text fw={600} size="lg">
            {MSG.comingSoon}
          </Text>
          <Text c="dimmed" size="sm" ta="center">
            This screen is being built and will be available here soon.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
