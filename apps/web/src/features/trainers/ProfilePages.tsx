import { Button, Image, NumberInput, SimpleGrid, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { trainerProfile } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { ImagePicker } from './ImagePicker';
import { FormCard, upper, useUploadForm } from './shared';

type Profile = z.infer<typeof trainerProfile>;

const LABELS: [keyof Profile, string][] = [
  ['first_name', 'First Name'],
  ['last_name', 'Last Name'],
  ['email', 'Email'],
  ['email2', 'Email 2'],
  ['email3', 'Email 3'],
  ['mobile_no', 'Mobile No'],
  ['mobile_no2', 'Mobile No 2'],
  ['mobile_no3', 'Mobile No 3'],
  ['base_location', 'Base Location'],
  ['address', 'Address'],
  ['dob', 'Date of Birth'],
  ['aadhar_no', 'Aadhar No'],
  ['pan_no', 'PAN No'],
  ['GSTIN_no', 'GSTIN No'],
  ['state_code', 'State Code'],
  ['MSME_reg_no', 'MSME Reg No'],
  ['type_of_enterprise', 'Type of Enterprise'],
  ['category_of_service', 'Category of Service'],
  ['services_rendered', 'Services Rendered'],
  ['vat_no', 'VAT No'],
  ['experience_over_all', 'Overall Experience (years)'],
];

const useProfile = () => useApiQuery('get-trainer-profile');

/** /trainer/profile: the profile, read-only, with an edit link. */
export function TrainerProfilePage() {
  const title = useRouteTitle();
  const q = useProfile();
  const p = q.data?.success;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/trainer/update-profile" leftSection={<IconEdit size={16} aria-hidden />}>
            Edit Profile
          </Button>
        }
      />
      {q.isLoading ? <LoadingLines lines={6} /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : null} />
      {p ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Stack align="center">
            {p.profile_pic ? (
              <Image src={p.profile_pic} alt="Profile picture" w={160} radius="md" />
            ) : (
              <Text c="dimmed">No profile picture</Text>
            )}
            {p.address_proof ? <Image src={p.address_proof} alt="Address proof" w={160} radius="md" /> : null}
          </Stack>
          <Table aria-label="Profile" style={{ gridColumn: 'span 2' }}>
            <Table.Tbody>
              {LABELS.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Th scope="row" w="40%">
                    {label}
                  </Table.Th>
                  <Table.Td>{p[key] === null || p[key] === '' ? '—' : String(p[key])}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

type Values = Record<string, string | number>;
const toValues = (p: Profile): Values =>
  Object.fromEntries(
    LABELS.map(([k]) => [k, p[k] === null || p[k] === undefined ? '' : (p[k] as string | number)]),
  ) as Values;
const UPPER = new Set(['aadhar_no', 'pan_no', 'GSTIN_no', 'state_code', 'MSME_reg_no', 'vat_no']);

function ProfileForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [pic, setPic] = useState<File | null>(null);
  const [proof, setProof] = useState<File | null>(null);
  const api = useUploadForm<Values, 'update-trainer-profile'>({
    path: 'update-trainer-profile',
    initialValues: toValues(profile),
    files: () => ({ profile_pic: pic, address_proof: proof }),
    validate: {
      first_name: (v) => (String(v).trim() ? null : 'The first name field is required.'),
      last_name: (v) => (String(v).trim() ? null : 'The last name field is required.'),
      email: (v) => (String(v).trim() ? null : 'The email field is required.'),
      mobile_no: (v) => (String(v).trim() ? null : 'The mobile no field is required.'),
    },
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['get-trainer-profile'] });
      navigate('/trainer/profile');
    },
  });
  const { form } = api;
  const text = (key: string, label: string, required = false) => {
    const input = form.getInputProps(key);
    return (
      <TextInput
        key={key}
        label={label}
        withAsterisk={required}
        {...input}
        onChange={(e) => form.setFieldValue(key, UPPER.has(key) ? upper(e.currentTarget.value) : e.currentTarget.value)}
      />
    );
  };
  return (
    <FormCard label="Profile" {...api} back="/trainer/profile" submitLabel="Update">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {text('first_name', 'First Name', true)}
        {text('last_name', 'Last Name', true)}
        <TextInput label="Date of Birth" type="date" {...form.getInputProps('dob')} />
        {text('email', 'Email', true)}
        {text('email2', 'Email 2')}
        {text('email3', 'Email 3')}
        {text('mobile_no', 'Mobile No', true)}
        {text('mobile_no2', 'Mobile No 2')}
        {text('mobile_no3', 'Mobile No 3')}
        {text('base_location', 'Base Location')}
        {text('aadhar_no', 'Aadhar No')}
        {text('pan_no', 'PAN No')}
        {text('GSTIN_no', 'GSTIN No')}
        {text('state_code', 'State Code')}
        {text('MSME_reg_no', 'MSME Reg No')}
        {text('type_of_enterprise', 'Type of Enterprise')}
        {text('category_of_service', 'Category of Service')}
        {text('vat_no', 'VAT No')}
        <NumberInput
          label="Overall Experience (years)"
          min={0}
          max={70}
          {...form.getInputProps('experience_over_all')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ImagePicker
          label="Profile Picture"
          value={pic}
          onChange={setPic}
          current={profile.profile_pic}
          error={form.errors.profile_pic}
        />
        <ImagePicker
          label="Address Proof"
          value={proof}
          onChange={setProof}
          current={profile.address_proof}
          error={form.errors.address_proof}
        />
      </SimpleGrid>
      <Textarea label="Address" autosize minRows={2} {...form.getInputProps('address')} />
      <Textarea label="Services Rendered" autosize minRows={2} {...form.getInputProps('services_rendered')} />
    </FormCard>
  );
}

/** /trainer/update-profile: every profile field, pictures as .png/.jpg/.jpeg. */
export function TrainerUpdateProfilePage() {
  const title = useRouteTitle();
  const q = useProfile();
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <LoadingLines lines={6} /> : null}
      <ErrorAlert message={q.error ? errorText(q.error) : null} />
      {q.data ? <ProfileForm profile={q.data.success} /> : null}
    </Stack>
  );
}
