import { Button, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { ImportPanel } from '../../ui/ImportPanel';
import { LearnerPicker } from '../../ui/LearnerPicker';
import { PageHeader } from '../../ui/PageHeader';

/** /assign-vm-to-user: labs to learners, by Excel (one free lab per row) or one at a time. */
export function AssignVmPage() {
  const title = useRouteTitle();
  const client = useQueryClient();
  const vms = useApiQuery('vm-list', { per_page: 100 });
  const free = (vms.data?.list ?? []).filter((v) => !v.assigned_user);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['vm-list'] });
    void client.invalidateQueries({ queryKey: ['get-vm-count'] });
  };
  const { form, onSubmit, otherError, submitting } = useApiForm<
    { first_name: string; last_name: string; email: string; mobile_no: string; name: string | null },
    'assign-vm-to-user'
  >({
    path: 'assign-vm-to-user',
    initialValues: { first_name: '', last_name: '', email: '', mobile_no: '', name: null },
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message ?? MSG.recordAdded });
      form.reset();
      refresh();
    },
  });
  return (
    <Stack gap="md">
      <BackLink to="/vm-list">VM List</BackLink>
      <PageHeader title={title} description="Each learner gets an e-mail and finds the VM on their dashboard." />
      <ImportPanel title="Assign by Excel" path="vm-assign-to-user" templateType="training-user" onImported={refresh} />
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h4">
              Assign to one learner
            </Title>
            <ErrorAlert message={otherError} />
            <LearnerPicker
              onPick={(l) =>
                form.setValues({
                  first_name: l.first_name,
                  last_name: l.last_name,
                  email: l.email,
                  mobile_no: l.mobile_no,
                })
              }
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
              <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
              <TextInput label="Mobile No" type="tel" withAsterisk {...form.getInputProps('mobile_no')} />
              <Select
                label="VM"
                placeholder="The oldest unassigned VM"
                clearable
                data={free.map((v) => ({ value: v.vm_name, label: `${v.name} (${v.vm_name})` }))}
                {...form.getInputProps('name')}
              />
            </SimpleGrid>
            <Button type="submit" loading={submitting} w="fit-content">
              Assign
            </Button>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
