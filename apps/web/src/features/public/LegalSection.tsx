import { List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface LegalSectionContent {
  heading: string;
  paragraphs?: ReactNode[];
  items?: ReactNode[];
}

export function LegalSection({ heading, paragraphs = [], items = [] }: LegalSectionContent) {
  return (
    <Stack component="section" gap="xs">
      <Title order={2} size="h3">
        {heading}
      </Title>
      {paragraphs.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static text
        <Text key={i}>{p}</Text>
      ))}
      {items.length ? (
        <List spacing={4}>
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static text
            <List.Item key={i}>{item}</List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}
