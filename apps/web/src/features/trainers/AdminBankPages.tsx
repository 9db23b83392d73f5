import { Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { adminBankRow, bankDetails } from '@trainlab/contract';
import { useState } from 'react';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

type Row = z.infer<typeof adminBankRow>;
type Bank = z.infer<typeof bankDetails>;

const FIELDS: [keyof Bank, string][] = [
  ['bank_name', 'Bank Name'],
  ['bank_account_name', 'Account Name'],
  ['account_number', 'Account Number'],
  ['account_type', 'Account Type'],
  ['ifsc_code', 'IFSC Code'],
  ['micr_code', 'MICR Code'],
  ['iban_code', 'IBAN Code'],
  ['bsr_code', 'BSR Code'],
  ['bank_address', 'Bank Address'],
];

/** One account whole: read from the server only when the admin asks (each reveal is audited there). */
function WholeAccount({ row, onClose }: { row: Row; onClose: () => void }) {
  const q = useApiQuery('get-bank-details', { id: row.id });
  return (
    <Modal opened onClose={onClose} title={`Bank account of ${row.trainer_name}`} size="lg">
      {q.error ? (
        <ErrorAlert message={errorText(q.error)} />
      ) : !q.data ? (
        <Loading />
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
            {FIELDS.map(([key, label]) => (
              <div key={key}>
                <Text component="dt" size="xs" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" m={0} fw={key === 'account_number' ? 700 : undefined}>
                  {q.data.success[key] || '—'}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            Viewing an account number whole is recorded in the audit log.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** /admin/trainer-bank-details: every trainer's bank accounts, numbers masked; one shown whole on request. */
export function AdminBankListPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('admin-bank-details-list', {}, { sort: 'trainer_name' });
  const [shown, setShown] = useState<Row | null>(null);
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      <DataTable
        label="Trainers' bank accounts"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          {
            accessor: 'trainer_name',
            title: 'Trainer',
            sortable: true,
            render: (r) => (
              <Stack gap={0}>
                <Text size="sm">{r.trainer_name}</Text>
                <Text size="xs" c="dimmed">
                  {r.trainer_email}
                </Text>
              </Stack>
            ),
          },
          { accessor: 'bank_name', title: 'Bank Name', sortable: true },
          { accessor: 'bank_account_name', title: 'Account Name' },
          { accessor: 'account_number', title: 'Account Number' },
          { accessor: 'ifsc_code', title: 'IFSC Code' },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (r) => (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconEye size={14} aria-hidden />}
                onClick={() => setShown(r)}
                aria-label={`Show the whole account of ${r.trainer_name} at ${r.bank_name}`}
              >
                Show whole
              </Button>
            ),
          },
        ]}
      />
      {shown ? <WholeAccount row={shown} onClose={() => setShown(null)} /> : null}
    </Stack>
  );
}
