import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { bankDetails } from '@trainlab/contract';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { decodeId, encodeId } from '../../ui/url-id';
import { AddRecordPage, UpdateRecordPage } from './RecordPages';
import { DeleteButton, FormCard, upper, useRemove, useSaved } from './shared';

type Bank = z.infer<typeof bankDetails>;
const LIST = '/trainer/bank-details-list';

/** /trainer/bank-details-list: the trainer's accounts, numbers masked. */
export function BankListPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('bank-details-list');
  const remove = useRemove('delete-bank-details', 'bank-details-list');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/trainer/add-bank-details" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Bank Details
          </Button>
        }
      />
      <DataTable
        label="Bank details"
        serial
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'bank_name', title: 'Bank Name', sortable: true },
          { accessor: 'bank_account_name', title: 'Account Name' },
          { accessor: 'account_number', title: 'Account Number' },
          { accessor: 'account_type', title: 'Account Type' },
          { accessor: 'ifsc_code', title: 'IFSC Code' },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (b) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowLink to={`/trainer/update-bank-details/${encodeId(b.id)}`} label={`Edit ${b.bank_name}`}>
                  Edit
                </RowLink>
                <DeleteButton label={`Delete ${b.bank_name}`} onClick={() => remove(b.id, b.bank_name)} />
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

type Values = Omit<Record<keyof Bank, string>, 'id'>;
const EMPTY: Values = {
  bank_name: '',
  bank_address: '',
  bank_account_name: '',
  account_number: '',
  account_type: '',
  ifsc_code: '',
  micr_code: '',
  iban_code: '',
  bsr_code: '',
};
const CODES = new Set(['ifsc_code', 'micr_code', 'iban_code', 'bsr_code', 'account_number']);
const required = (label: string) => (v: string) => (v.trim() ? null : `The ${label} field is required.`);

function BankForm({ bank }: { bank?: Bank }) {
  const saved = useSaved('bank-details-list', LIST);
  const initial: Values = bank
    ? (Object.fromEntries(Object.keys(EMPTY).map((k) => [k, (bank[k as keyof Bank] as string | null) ?? ''])) as Values)
    : EMPTY;
  const api = useApiForm<Values, 'update-bank-details' | 'add-bank-details'>({
    path: bank ? 'update-bank-details' : 'add-bank-details',
    initialValues: initial,
    validate: {
      bank_name: required('bank name'),
      bank_account_name: required('bank account name'),
      account_number: required('account number'),
      account_type: required('account type'),
      ifsc_code: required('ifsc code'),
    },
    toBody: (v) => (bank ? { ...v, id: bank.id } : v),
    onSuccess: saved,
  });
  const field = (key: keyof Values, label: string, withAsterisk = false) => (
    <TextInput
      label={label}
      withAsterisk={withAsterisk}
      {...api.form.getInputProps(key)}
      onChange={(e) =>
        api.form.setFieldValue(key, CODES.has(key) ? upper(e.currentTarget.value) : e.currentTarget.value)
      }
    />
  );
  return (
    <FormCard label="Bank details" {...api} back={LIST}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {field('bank_name', 'Bank Name', true)}
        {field('bank_address', 'Bank Address')}
        {field('bank_account_name', 'Account Name', true)}
        {field('account_number', 'Account Number', true)}
        {field('account_type', 'Account Type', true)}
        {field('ifsc_code', 'IFSC Code', true)}
        {field('micr_code', 'MICR Code')}
        {field('iban_code', 'IBAN Code')}
        {field('bsr_code', 'BSR Code')}
      </SimpleGrid>
    </FormCard>
  );
}

/** /trainer/add-bank-details */
export function AddBankPage() {
  return <AddRecordPage form={<BankForm />} />;
}

/** /trainer/update-bank-details/:id (base64 id) */
export function UpdateBankPage() {
  const id = decodeId(useParams().id) ?? 0;
  return (
    <UpdateRecordPage get="get-bank-details" id={id} valid={id > 0} form={(b) => <BankForm key={b.id} bank={b} />} />
  );
}
