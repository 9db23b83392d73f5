import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

/** The add screen of one of the trainer's records: the route's title over the empty form. */
export function AddRecordPage({ form }: { form: ReactNode }) {
  const title = useRouteTitle();
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {form}
    </Stack>
  );
}

/**
 * The update screen of one of the trainer's records: loads it with `get` {id}, shows loading and
 * errors, then its form. `valid` false (an id that could not be read from the address) is Not Found
 * without a call.
 */
export function UpdateRecordPage<T>(props: {
  get: string;
  id: number;
  valid?: boolean;
  form: (record: T) => ReactNode;
}) {
  const title = useRouteTitle();
  const valid = props.valid ?? true;
  const q = useApiQuery<{ success: T }>(props.get, { id: props.id }, { enabled: valid });
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <LoadingLines /> : null}
      <ErrorAlert message={valid ? (q.error ? errorText(q.error) : null) : 'Not Found'} />
      {q.data ? props.form(q.data.success) : null}
    </Stack>
  );
}
