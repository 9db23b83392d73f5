import { Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiAnswer } from '../../api/call-types';
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

/** The calls that read one of the trainer's records by its id. */
type RecordPath = 'get-bank-details' | 'get-trainer-certificate' | 'get-trainer-reference' | 'get-trainer-skill';

/**
 * The update screen of one of the trainer's records: loads it with `get` {id}, shows loading and
 * errors, then its form. `valid` false (an id that could not be read from the address) is Not Found
 * without a call.
 */
export function UpdateRecordPage<P extends RecordPath>(props: {
  get: P;
  id: number;
  valid?: boolean;
  form: (record: ApiAnswer<P>['success']) => ReactNode;
}) {
  const title = useRouteTitle();
  const valid = props.valid ?? true;
  // typed by all the record calls (each takes {id}); the answer is the one of `get`
  const q = useApiQuery<RecordPath>(props.get, { id: props.id }, { enabled: valid }) as UseQueryResult<
    ApiAnswer<P>,
    Error
  >;
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <LoadingLines /> : null}
      <ErrorAlert message={valid ? (q.error ? errorText(q.error) : null) : 'Not Found'} />
      {q.data ? props.form(q.data.success) : null}
    </Stack>
  );
}
