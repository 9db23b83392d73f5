import { ActionIcon, Anchor, Button, Group, Paper, SimpleGrid, Stack, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconEdit } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { ApiPath } from '../../api/call-types';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { required } from './shared';

export interface PersonValues extends Record<string, unknown> {
  first_name: string;
  last_name: string;
  email: string;
  mobile_no: string;
}

export const EMPTY_PERSON: PersonValues = { first_name: '', last_name: '', email: '', mobile_no: '' };

export const PERSON_VALIDATE = {
  first_name: required('first name'),
  last_name: required('last name'),
  email: required('email'),
  mobile_no: required('mobile no'),
};

export const personBody = (v: PersonValues) => ({
  first_name: v.first_name.trim(),
  last_name: v.last_name.trim(),
  email: v.email.trim(),
  mobile_no: v.mobile_no.trim(),
});

/** First Name, Last Name, Email, Mobile No with a submit button and an optional back link. */
export function PersonForm({
  api,
  submitLabel,
  back,
}: {
  api: ReturnType<typeof useApiForm<PersonValues, ApiPath>>;
  submitLabel: string;
  back?: { to: string; label: string };
}) {
  const { form, onSubmit, otherError, submitting } = api;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={720}>
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
            <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
            <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
            <TextInput label="Mobile No" type="tel" withAsterisk {...form.getInputProps('mobile_no')} />
          </SimpleGrid>
          <Group justify={back ? 'space-between' : 'flex-end'}>
            {back ? (
              <Anchor component={Link} to={back.to} size="sm">
                <Group gap={4}>
                  <IconArrowLeft size={16} aria-hidden />
                  {back.label}
                </Group>
              </Anchor>
            ) : null}
            <Button type="submit" loading={submitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The Edit icon link of a person row. */
export function EditPersonLink({ to, person }: { to: string; person: { first_name: string; last_name: string } }) {
  return (
    <Tooltip label="Edit">
      <ActionIcon variant="light" component={Link} to={to} aria-label={`Edit ${person.first_name} ${person.last_name}`}>
        <IconEdit size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

/** The update call and what names the record in its request. */
type PersonUpdateCall =
  | { path: 'update-trainer'; key: { id: number } }
  | { path: 'update-user-profile'; key: { slug: string } };

type PersonUpdateOptions = PersonUpdateCall & {
  person: { first_name: string; last_name: string; email: string; mobile_no: string | null };
  /** read calls to refresh after the update */
  invalidates: ApiPath[];
  /** the list to return to */
  goTo: string;
};

/** An edit form of a person prefilled from its record: toast, refreshed lists, back to the list. */
export function usePersonUpdate({ path, person, key, invalidates, goTo }: PersonUpdateOptions) {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useApiForm<PersonValues, PersonUpdateCall['path']>({
    path,
    initialValues: {
      first_name: person.first_name,
      last_name: person.last_name,
      email: person.email,
      mobile_no: person.mobile_no ?? '',
    },
    validate: PERSON_VALIDATE,
    toBody: (v) => ({ ...key, ...personBody(v) }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
      navigate(goTo);
    },
  });
}
