import { Button, Grid } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';

/**
 * The body of a catalogue item's own page (a course, a certification): not in the catalogue (with
 * the way back to it), loading, an error, or the item's text beside its buy box (above it on a phone).
 */
export function CatalogueItemFrame({
  gone,
  query,
  missing,
  browse,
  content,
}: {
  gone: boolean;
  query: { isLoading: boolean; error: unknown };
  /** what a visitor reads when the item is not in the catalogue */
  missing: string;
  browse: { to: string; label: string };
  content: { main: ReactNode; aside: ReactNode } | null;
}) {
  if (gone)
    return (
      <EmptyState
        message={missing}
        hint={
          <Button component={Link} to={browse.to} variant="light" size="xs">
            {browse.label}
          </Button>
        }
      />
    );
  if (query.isLoading) return <Loading />;
  if (query.error) return <ErrorAlert message={errorText(query.error)} />;
  if (!content) return null;
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
        {content.main}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
        {content.aside}
      </Grid.Col>
    </Grid>
  );
}
