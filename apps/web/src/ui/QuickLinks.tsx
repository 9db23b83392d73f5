import { Card, Group, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';

export interface QuickLink {
  label: string;
  to: string;
}

/** A titled section of link cards (the homes' "Quick links"). */
export function QuickLinks({ links, title = 'Quick links' }: { links: QuickLink[]; title?: string }) {
  const titleId = useId();
  return (
    <Stack component="section" aria-labelledby={titleId} gap="md">
      <Title id={titleId} order={2} size="h4">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        {links.map((item) => (
          <UnstyledButton key={item.to} component={Link} to={item.to} aria-label={item.label}>
            <Card withBorder radius="md" padding="md" h="100%">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{item.label}</Text>
                <IconArrowRight size={18} aria-hidden />
              </Group>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
