import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { servicePrice } from '@trainlab/contract';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { formatInr } from '../../ui/money';
import { PageHeader } from '../../ui/PageHeader';
import type { CreatedTraining } from './AllTrainingsPage';
import { pickerToIso } from './shared';
import { TrainingDetailFields } from './TrainingDetailFields';

type ServicePrice = z.infer<typeof servicePrice>;

interface CreateValues extends Record<string, unknown> {
  name: string;
  start_date: string | null;
  end_date: string | null;
  total_training_day: number | string;
  number_of_participants: number | string;
  description: string;
  requirements: string[];
  pre_assessment: boolean;
  post_assessment: boolean;
}

const num = (v: number | string) => (typeof v === 'number' ? v : Number(v) || 0);

/** The Cost tab lines: the service price × the days or the participants. */
export function costLines(prices: ServicePrice[], v: CreateValues) {
  const price = (service: string) => prices.find((p) => p.service === service)?.price ?? 0;
  const lines = [
    { service: 'TRAINING (Per Day)', unit: price('TRAINING (Per Day)'), qty: num(v.total_training_day), per: 'days' },
  ];
  if (v.pre_assessment)
    lines.push({
      service: 'PRE-ASSESSMENT (Per Test)',
      unit: price('PRE-ASSESSMENT (Per Test)'),
      qty: num(v.number_of_participants),
      per: 'participants',
    });
  if (v.post_assessment)
    lines.push({
      service: 'POST-ASSESSMENT (Per Test)',
      unit: price('POST-ASSESSMENT (Per Test)'),
      qty: num(v.number_of_participants),
      per: 'participants',
    });
  const rows = lines.map((l) => ({ ...l, amount: Math.round(l.unit * l.qty * 100) / 100 }));
  const total = Math.round(rows.reduce((s, r) => s + r.amount, 0) * 100) / 100;
  return { rows, total };
}

const money = formatInr;

/** /create-training: tabs 'Create Training' and 'Cost' (spec 01 §2, §5). */
export function CreateTrainingPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const [tab, setTab] = useState<string | null>('create');
  const [requirement, setRequirement] = useState('');
  const prices = useApiQuery('get-services-price');
  const [now] = useState(() => new Date());

  const { form, onSubmit, otherError, submitting } = useApiForm<CreateValues, 'create-training'>({
    path: 'create-training',
    initialValues: {
      name: '',
      start_date: null,
      end_date: null,
      total_training_day: 1,
      number_of_participants: 1,
      description: '',
      requirements: [],
      pre_assessment: false,
      post_assessment: false,
    },
    validate: {
      end_date: (v, values) =>
        v && values.start_date && dayjs(v).isBefore(dayjs(values.start_date))
          ? 'The end date must be a date after or equal to start date.'
          : null,
      start_date: (v) =>
        v && dayjs(v).isBefore(dayjs().subtract(1, 'minute'))
          ? 'The start date must be a date after or equal to now.'
          : null,
    },
    toBody: (v) => ({
      ...v,
      start_date: pickerToIso(v.start_date),
      end_date: pickerToIso(v.end_date),
      total_training_day: num(v.total_training_day),
      number_of_participants: num(v.number_of_participants),
    }),
    onSuccess: (data, values) => {
      notifications.show({ color: 'green', message: data.message });
      // spec 01: success goes to /all-trainings; a ticked assessment is offered there as the next step
      const created: CreatedTraining = {
        slug: data.slug,
        name: values.name,
        pre_assessment: values.pre_assessment,
        post_assessment: values.post_assessment,
      };
      navigate('/all-trainings', { state: { created } });
    },
  });

  const cost = useMemo(() => costLines(prices.data?.list ?? [], form.values), [prices.data, form.values]);

  const addRequirement = () => {
    const text = requirement.trim();
    if (!text) return;
    form.setFieldValue('requirements', [...form.values.requirements, text]);
    setRequirement('');
  };

  // a server error on any field sends the user back to the form tab
  const submit = (e?: React.FormEvent<HTMLFormElement>) => {
    setTab('create');
    onSubmit(e);
  };

  return (
    <Stack gap="md">
      <PageHeader title={title} description="Schedule a live training and see what it will cost." />
      <form onSubmit={submit} noValidate>
        <Paper withBorder radius="md" p="md">
          <ErrorAlert message={otherError} />
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List mb="md">
              <Tabs.Tab value="create">Create Training</Tabs.Tab>
              <Tabs.Tab value="cost">Cost</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="create">
              <Stack gap="md">
                <TrainingDetailFields
                  input={(field) => form.getInputProps(field)}
                  pick={{ startMin: now, endMin: form.values.start_date ?? now }}
                />
                <Stack gap={6}>
                  <Group align="flex-end" gap="xs" wrap="nowrap">
                    <TextInput
                      label="Requirement"
                      style={{ flex: 1 }}
                      value={requirement}
                      error={form.errors.requirements}
                      onChange={(e) => setRequirement(e.currentTarget.value)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') {
                          e.preventDefault();
                          addRequirement();
                        }
                      }}
                    />
                    <Button
                      variant="light"
                      leftSection={<IconPlus size={16} aria-hidden />}
                      onClick={addRequirement}
                      mb={form.errors.requirements ? 22 : 0}
                    >
                      Add
                    </Button>
                  </Group>
                  {form.values.requirements.length ? (
                    <List spacing={4} size="sm" aria-label="Requirements" listStyleType="none">
                      {form.values.requirements.map((r, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: requirements are plain texts that may repeat
                        <List.Item key={`${r}-${i}`}>
                          <Group gap="xs" wrap="nowrap">
                            <Tooltip label="Delete requirement">
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                size="sm"
                                aria-label={`Delete requirement ${r}`}
                                onClick={() =>
                                  form.setFieldValue(
                                    'requirements',
                                    form.values.requirements.filter((_, j) => j !== i),
                                  )
                                }
                              >
                                <IconTrash size={14} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                            <Text size="sm">{r}</Text>
                          </Group>
                        </List.Item>
                      ))}
                    </List>
                  ) : null}
                </Stack>
                <Group gap="lg">
                  <Checkbox label="Pre Assessment" {...form.getInputProps('pre_assessment', { type: 'checkbox' })} />
                  <Checkbox label="Post Assessment" {...form.getInputProps('post_assessment', { type: 'checkbox' })} />
                </Group>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="cost">
              {prices.isLoading ? (
                <LoadingLines />
              ) : prices.error ? (
                <ErrorAlert message="The service prices could not be loaded." />
              ) : (
                <Table.ScrollContainer minWidth={480}>
                  <Table aria-label="Training cost" striped withTableBorder>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Service</Table.Th>
                        <Table.Th ta="right">Price (₹)</Table.Th>
                        <Table.Th ta="right">Quantity</Table.Th>
                        <Table.Th ta="right">Amount</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {cost.rows.map((r) => (
                        <Table.Tr key={r.service}>
                          <Table.Td>{r.service}</Table.Td>
                          <Table.Td ta="right">{money(r.unit)}</Table.Td>
                          <Table.Td ta="right">{`${r.qty} ${r.per}`}</Table.Td>
                          <Table.Td ta="right">{money(r.amount)}</Table.Td>
                        </Table.Tr>
                      ))}
                      <Table.Tr>
                        <Table.Th colSpan={3}>Total</Table.Th>
                        <Table.Th ta="right" data-testid="cost-total">
                          {money(cost.total)}
                        </Table.Th>
                      </Table.Tr>
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Tabs.Panel>
          </Tabs>
          <Group justify="flex-end" mt="lg">
            <Button type="submit" loading={submitting}>
              Create Training
            </Button>
          </Group>
        </Paper>
      </form>
    </Stack>
  );
}
