import { Alert, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CLOUD_ZONES,
  labPrice,
  limitsFor,
  MSG,
  OPERATING_SYSTEMS,
  PRICE_UNITS_PER_RUPEE,
  protocolFor,
  VM_LIMITS,
  VM_PRICE_DEBOUNCE_MS,
  VM_RAM_OPTIONS,
} from '@trainlab/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiAnswer } from '../../api/call-types';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { formatInr, formatPrice } from './shared';

interface Values {
  image: string;
  protocol: string;
  zone: string;
  count: number | string;
  softwares: string;
  storage: number | string;
  ram: string;
  [key: string]: unknown;
}
/** A lab just created with its one-time login (Create passes them on to the list). */
export type CreatedVm = ApiAnswer<'gc-create-vm'>['list'][number];

/** The value after it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** /create-vm (spec 02 §5): no lab account → /register-cloud-account; live price 1 s after input; success → /vm-list. */
export function CreateVmPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const account = useApiQuery('check-gc-ac-exist');
  const pricing = useApiQuery('get-pricing');

  useEffect(() => {
    // decide on a fresh answer only (a cached one may predate the registration)
    if (!account.data || account.isFetching) return;
    // the way there says why: a lab runs under the tenant's lab account
    if (!account.data.exist) navigate('/register-cloud-account', { replace: true, state: { from: 'create-vm' } });
    else if (!account.data.authorized)
      navigate('/authorize-cloud-account', { replace: true, state: { from: 'create-vm' } });
  }, [account.data, account.isFetching, navigate]);

  const { form, onSubmit, otherError, submitting } = useApiForm<Values, 'gc-create-vm'>({
    path: 'gc-create-vm',
    initialValues: {
      image: 'ubuntu',
      protocol: 'ssh',
      zone: CLOUD_ZONES[0],
      count: VM_LIMITS.defaultCount,
      softwares: '',
      storage: VM_LIMITS.linux.defaultStorage,
      ram: String(VM_LIMITS.defaultRam),
    },
    validate: {
      ram: (v, values) =>
        Number(v) < limitsFor(values.image).minRam
          ? `The ram must be at least ${limitsFor(values.image).minRam} GB for this OS.`
          : null,
      storage: (v, values) =>
        Number(v) < limitsFor(values.image).minStorage
          ? `The storage must be at least ${limitsFor(values.image).minStorage} GB for this OS.`
          : null,
      count: (v) =>
        Number(v) >= 1 && Number(v) <= VM_LIMITS.maxCount ? null : `The count must be 1 to ${VM_LIMITS.maxCount}.`,
    },
    toBody: (v) => ({ ...v, ram: Number(v.ram), storage: Number(v.storage), count: Number(v.count) }),
    onSuccess: (data) => {
      notifications.show({ color: 'green', message: data.message ?? MSG.vmCreated });
      navigate('/vm-list', { state: { created: data.list } });
    },
  });

  const image = form.values.image;
  // the protocol is fixed by the OS; the defaults and minimums follow it
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the OS only
  useEffect(() => {
    const lim = limitsFor(image);
    form.setFieldValue('protocol', protocolFor(image));
    form.setFieldValue('storage', lim.defaultStorage);
    if (Number(form.values.ram) < lim.minRam) form.setFieldValue('ram', String(lim.minRam));
  }, [image]);

  const settled = useSettled(
    {
      image,
      ram: Number(form.values.ram),
      storage: Number(form.values.storage) || 0,
      count: Number(form.values.count) || 0,
    },
    VM_PRICE_DEBOUNCE_MS,
  );
  // the one price rule the server meters by (decision 0053): one lab's price, times the count
  const price = pricing.data ? labPrice(pricing.data, settled) : null;
  const toRupees = (units: number) => units / PRICE_UNITS_PER_RUPEE;

  if (account.isLoading) return <Loading />;
  const lim = limitsFor(image);
  return (
    <Stack gap="md">
      <PageHeader title={title} description="Virtual machines run on your lab account; each gets its own login." />
      <Paper withBorder p="lg" radius="md" maw={820}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <ErrorAlert message={otherError} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Operating System"
                withAsterisk
                allowDeselect={false}
                data={OPERATING_SYSTEMS.map((o) => ({
                  value: o,
                  label: o === 'windows' ? 'Windows' : 'Ubuntu (Linux)',
                }))}
                {...form.getInputProps('image')}
              />
              <TextInput
                label="Protocol"
                readOnly
                description="Fixed by the operating system"
                {...form.getInputProps('protocol')}
              />
              <Select
                label="Zone"
                withAsterisk
                allowDeselect={false}
                data={[...CLOUD_ZONES]}
                {...form.getInputProps('zone')}
              />
              <Select
                label="RAM (GB)"
                withAsterisk
                allowDeselect={false}
                data={VM_RAM_OPTIONS.map((r) => ({ value: String(r), label: `${r} GB`, disabled: r < lim.minRam }))}
                {...form.getInputProps('ram')}
              />
              <NumberInput
                label="Storage (GB)"
                withAsterisk
                min={lim.minStorage}
                max={VM_LIMITS.maxStorage}
                description={`At least ${lim.minStorage} GB`}
                {...form.getInputProps('storage')}
              />
              <NumberInput
                label="Count"
                withAsterisk
                min={1}
                max={VM_LIMITS.maxCount}
                {...form.getInputProps('count')}
              />
            </SimpleGrid>
            <TextInput label="Softwares" placeholder="e.g. git, python3" {...form.getInputProps('softwares')} />
            <Alert color="blue" variant="light" aria-live="polite" title="Price">
              {price ? (
                <Stack gap={4}>
                  <Text size="sm" fw={600} data-testid="vm-price">
                    {formatPrice(toRupees(price.perHour))} per hour while it runs
                    {settled.count > 1
                      ? ` each, ${formatPrice(toRupees(price.perHour * settled.count))} per hour for ${settled.count} VMs`
                      : ''}
                  </Text>
                  <Text size="sm" data-testid="vm-price-parts">
                    Machine {formatPrice(toRupees(price.machinePerHour))} per hour + storage{' '}
                    {formatInr(toRupees(price.storagePerMonth))} per month ({settled.storage} GB), charged as{' '}
                    {formatPrice(toRupees(price.storagePerHour))} per running hour (a month is 720 hours).
                  </Text>
                  <Text size="xs" c="dimmed">
                    Each run is charged this price per hour for its minutes, rounded to the paisa; VM Details and Pay VM
                    Billing list every run.
                  </Text>
                </Stack>
              ) : (
                <Text size="sm">{pricing.isLoading ? 'Loading prices…' : 'No price for this size.'}</Text>
              )}
            </Alert>
            <Group>
              <Button type="submit" loading={submitting}>
                Create VM
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
