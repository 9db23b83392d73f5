import {
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { required } from './shared';

type UnitKind = 'branch' | 'department' | 'section';
type UnitListPath = 'org/get-branches' | 'org/get-departments' | 'org/get-sections';
type UnitAddPath = 'org/add-branch' | 'org/add-department' | 'org/add-section';
const UNIT: Record<UnitKind, { label: string; list: UnitListPath; add: UnitAddPath }> = {
  branch: { label: 'Branch', list: 'org/get-branches', add: 'org/add-branch' },
  department: { label: 'Department', list: 'org/get-departments', add: 'org/add-department' },
  section: { label: 'Section', list: 'org/get-sections', add: 'org/add-section' },
};

/** The 'Add New' popup of a branch, department or section: saves, closes, hands back the new id. */
function AddUnitModal({
  kind,
  opened,
  onClose,
  onAdded,
}: {
  kind: UnitKind;
  opened: boolean;
  onClose: () => void;
  onAdded: (id: number) => void;
}) {
  const unit = UNIT[kind];
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting, clearAllErrors } = useApiForm({
    path: unit.add,
    initialValues: { name: '' },
    validate: { name: required('name') },
    toBody: (v) => ({ name: v.name.trim() }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: [unit.list] });
      onAdded(data.id);
      form.reset();
      onClose();
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={() => {
        form.reset();
        clearAllErrors();
        onClose();
      }}
      title={`Add New ${unit.label}`}
    >
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={`${unit.label} name`} withAsterisk data-autofocus {...form.getInputProps('name')} />
          <Group justify="flex-end">
            <Button type="submit" loading={submitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function UnitSelect({
  kind,
  value,
  onChange,
  error,
}: {
  kind: UnitKind;
  value: string;
  onChange: (v: string) => void;
  error?: React.ReactNode;
}) {
  const unit = UNIT[kind];
  const q = useApiQuery(unit.list);
  const [open, setOpen] = useState(false);
  const data = [
    { value: '', label: q.isLoading ? 'Loading…' : `Select ${unit.label.toLowerCase()}` },
    ...(q.data?.list ?? []).map((o) => ({ value: String(o.id), label: o.name })),
  ];
  return (
    <>
      <Stack gap={4}>
        <NativeSelect
          label={unit.label}
          data={data}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          error={error ?? (q.error ? `Could not load the ${unit.label.toLowerCase()} list.` : undefined)}
        />
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          aria-label={`Add New ${unit.label}`}
          onClick={() => setOpen(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          Add New
        </Button>
      </Stack>
      <AddUnitModal kind={kind} opened={open} onClose={() => setOpen(false)} onAdded={(id) => onChange(String(id))} />
    </>
  );
}

type MemberKind = 'subadmin' | 'user';

/**
 * /org/add-org-sub-admin and /org/add-org-subadmin: an organization proposes a sub-admin (waits for
 * the admin) or adds an organization user (active at once), with branch, department and section.
 */
export function AddOrgMemberPage() {
  const title = useRouteTitle();
  const session = useSession();
  const canProposeSubadmin = session?.roles.includes('organization') ?? false;
  const [kind, setKind] = useState<MemberKind>(canProposeSubadmin ? 'subadmin' : 'user');
  const [success, setSuccess] = useState<string | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: kind === 'subadmin' ? 'org/add-org-subadmin' : 'org/add-org-user',
    initialValues: {
      branch_id: '',
      department_id: '',
      section_id: '',
      first_name: '',
      last_name: '',
      email: '',
      mobile_no: '',
    },
    validate: {
      first_name: required('first name'),
      last_name: required('last name'),
      email: required('email'),
      mobile_no: required('mobile no'),
    },
    toBody: (v) => ({
      first_name: v.first_name.trim(),
      last_name: v.last_name.trim(),
      email: v.email.trim(),
      mobile_no: v.mobile_no.trim(),
      branch_id: v.branch_id ? Number(v.branch_id) : null,
      department_id: v.department_id ? Number(v.department_id) : null,
      section_id: v.section_id ? Number(v.section_id) : null,
    }),
    onSuccess: (data) => {
      setSuccess(data.message);
      notifications.show({ color: 'green', message: data.message });
      form.reset();
    },
  });

  const unitProps = (kindOf: UnitKind) => {
    const key = `${kindOf}_id` as const;
    return {
      kind: kindOf,
      value: form.values[key],
      onChange: (v: string) => form.setFieldValue(key, v),
      error: form.errors[key],
    };
  };

  return (
    <Stack gap="md">
      <PageHeader title={title} description="Add a sub-admin or a user to your organization." />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={820}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            {canProposeSubadmin ? (
              <Stack gap={4}>
                <Text size="sm" fw={500} id="member-kind-label">
                  Create
                </Text>
                <SegmentedControl
                  aria-labelledby="member-kind-label"
                  value={kind}
                  onChange={(v) => {
                    setKind(v as MemberKind);
                    setSuccess(null);
                  }}
                  data={[
                    { value: 'subadmin', label: 'Sub-admin' },
                    { value: 'user', label: 'Organization user' },
                  ]}
                  maw={420}
                />
                <Text size="xs" c="dimmed">
                  {kind === 'subadmin'
                    ? 'A sub-admin waits for the admin’s approval; a set-password mail is sent to them.'
                    : 'An organization user is active at once; a set-password mail is sent to them.'}
                </Text>
              </Stack>
            ) : null}
            <SuccessAlert message={success} />
            <ErrorAlert message={otherError} />
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              <UnitSelect {...unitProps('branch')} />
              <UnitSelect {...unitProps('department')} />
              <UnitSelect {...unitProps('section')} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
              <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
              <TextInput label="Mobile No" type="tel" withAsterisk {...form.getInputProps('mobile_no')} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={submitting}>
                {kind === 'subadmin' ? 'Create Admin' : 'Add User'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
