import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconChartBar, IconTable } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';

export interface ChartColumn<T> {
  title: string;
  value: (row: T) => ReactNode;
  numeric?: boolean;
}

interface ChartPanelProps<T> {
  title: string;
  /** what the chart shows, in words: the accessible name of the chart picture */
  summary: string;
  /** a line under the title (what is counted) */
  description?: string;
  /** shown instead of chart and table when there is nothing to draw */
  emptyMessage: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: ChartColumn<T>[];
  chart: ReactNode;
}

/**
 * One chart of a dashboard with the same figures as a table: the chart is a picture named by its
 * summary (role="img"), 'Show as table' swaps it for a real table with a caption, for a screen reader
 * or anyone who would rather read the numbers.
 */
export function ChartPanel<T>({
  title,
  summary,
  description,
  emptyMessage,
  rows,
  rowKey,
  columns,
  chart,
}: ChartPanelProps<T>) {
  const [asTable, setAsTable] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const empty = rows.length === 0;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId} miw={0}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ flex: '1 1 12rem', minWidth: 0 }}>
            <Title id={titleId} order={3} size="h5">
              {title}
            </Title>
            {description ? (
              <Text size="xs" c="dimmed">
                {description}
              </Text>
            ) : null}
          </Stack>
          {empty ? null : (
            // the label says what a press does; no aria-pressed beside it, which would say it twice
            <Button
              size="compact-sm"
              variant="subtle"
              aria-controls={bodyId}
              leftSection={asTable ? <IconChartBar size={14} aria-hidden /> : <IconTable size={14} aria-hidden />}
              onClick={() => setAsTable((v) => !v)}
            >
              {asTable ? 'Show as chart' : 'Show as table'}
            </Button>
          )}
        </Group>
        <div id={bodyId}>
          {empty ? (
            <Text c="dimmed" size="sm" py="lg" ta="center">
              {emptyMessage}
            </Text>
          ) : asTable ? (
            <Table.ScrollContainer minWidth={0}>
              <Table striped withTableBorder captionSide="top" fz="sm">
                <Table.Caption>{title}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c.title} scope="col" ta={c.numeric ? 'right' : undefined}>
                        {c.title}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={rowKey(row)}>
                      {columns.map((c, i) =>
                        i === 0 ? (
                          <Table.Th key={c.title} scope="row" fw={500}>
                            {c.value(row)}
                          </Table.Th>
                        ) : (
                          <Table.Td key={c.title} ta={c.numeric ? 'right' : undefined}>
                            {c.value(row)}
                          </Table.Td>
                        ),
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <div role="img" aria-label={summary} style={{ minWidth: 0 }}>
              {chart}
            </div>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
