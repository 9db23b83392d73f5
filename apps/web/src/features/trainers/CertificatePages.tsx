import { Anchor, Button, Group, Image, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { trainerCertificate } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { formatDate } from '../learner/format';
import { ImagePicker } from './ImagePicker';
import { AddRecordPage, UpdateRecordPage } from './RecordPages';
import { DeleteButton, FormCard, OwnSkillSelect, useRemove, useSaved, useUploadForm } from './shared';

type Certificate = z.infer<typeof trainerCertificate>;
const LIST = '/trainer/certificate/list';
const today = () => new Date().toISOString().slice(0, 10);

/** /trainer/certificate/list */
export function CertificateListPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('trainer-certificate-list');
  const remove = useRemove('delete-trainer-certificate', 'trainer-certificate-list');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/trainer/certificate/add" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Certificate
          </Button>
        }
      />
      <DataTable
        label="Certificates"
        serial
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          {
            accessor: 'certificate_image',
            title: 'Image',
            render: (c) =>
              c.certificate_image ? (
                <Image src={c.certificate_image} alt={c.certificate_name} w={64} radius="sm" />
              ) : (
                '—'
              ),
          },
          { accessor: 'name', title: 'Skill', sortable: true },
          { accessor: 'certificate_name', title: 'Certificate', sortable: true },
          {
            accessor: 'certify_date',
            title: 'Certified On',
            sortable: true,
            render: (c) => formatDate(c.certify_date),
          },
          {
            accessor: 'verify_link',
            title: 'Verify',
            render: (c) =>
              c.verify_link ? (
                <Anchor href={c.verify_link} target="_blank" rel="noreferrer">
                  Verify
                </Anchor>
              ) : (
                '—'
              ),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (c) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowLink to={`/trainer/certificate/update/${c.id}`} label={`Edit ${c.certificate_name}`}>
                  Edit
                </RowLink>
                <DeleteButton label={`Delete ${c.certificate_name}`} onClick={() => remove(c.id, c.certificate_name)} />
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

type Values = {
  skill_id: string | null;
  certificate_name: string;
  verify_link: string;
  certify_date: string;
  id: string;
};

function CertificateForm({ current }: { current?: Certificate }) {
  const saved = useSaved('trainer-certificate-list', LIST);
  const [file, setFile] = useState<File | null>(null);
  const api = useUploadForm<Values, 'update-trainer-certificate' | 'add-trainer-certificate'>({
    path: current ? 'update-trainer-certificate' : 'add-trainer-certificate',
    initialValues: {
      skill_id: current ? String(current.skill_id) : null,
      certificate_name: current?.certificate_name ?? '',
      verify_link: current?.verify_link ?? '',
      certify_date: current?.certify_date ?? '',
      id: current ? String(current.id) : '',
    },
    validate: {
      skill_id: (v) => (v ? null : 'The skill id field is required.'),
      certificate_name: (v) => (v.trim() ? null : 'The certificate name field is required.'),
      certify_date: (v) =>
        !v
          ? 'The certify date field is required.'
          : v > today()
            ? 'The certify date must be a date before or equal to today.'
            : null,
    },
    files: () => ({ certificate_image: file }),
    onSuccess: saved,
  });
  const { form } = api;
  return (
    <FormCard label="Certificate" {...api} back={LIST}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <OwnSkillSelect {...form.getInputProps('skill_id')} />
        <TextInput label="Certificate Name" withAsterisk {...form.getInputProps('certificate_name')} />
        <TextInput label="Verify Link" type="url" placeholder="https://" {...form.getInputProps('verify_link')} />
        <TextInput
          label="Certify Date"
          type="date"
          withAsterisk
          max={today()}
          {...form.getInputProps('certify_date')}
        />
        <ImagePicker
          label="Certificate Image"
          required={!current}
          value={file}
          onChange={setFile}
          current={current?.certificate_image}
          error={form.errors.certificate_image}
        />
      </SimpleGrid>
    </FormCard>
  );
}

/** /trainer/certificate/add */
export function CertificateAddPage() {
  return <AddRecordPage form={<CertificateForm />} />;
}

/** /trainer/certificate/update/:id */
export function CertificateUpdatePage() {
  return (
    <UpdateRecordPage
      get="get-trainer-certificate"
      id={Number(useParams().id)}
      form={(c) => <CertificateForm key={c.id} current={c} />}
    />
  );
}
