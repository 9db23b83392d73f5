import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { EXPERIENCE_TYPES, type trainerSkill } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { formatUsd, RATE_CURRENCY_NOTE } from '../../ui/money';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { AddRecordPage, UpdateRecordPage } from './RecordPages';
import { DeleteButton, FormCard, useRemove, useSaved } from './shared';

type TrainerSkill = z.infer<typeof trainerSkill>;
const LIST = '/trainer/skill-list';

/** /trainer/skill-list: Sr.No, Category, Skill, Experience, Rate per hour, Action. */
export function SkillListPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('trainer-skill-list');
  const remove = useRemove('delete-trainer-skill', 'trainer-skill-list');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/trainer/skill-add" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Skill
          </Button>
        }
      />
      <DataTable
        label="Skills"
        serial
        idAccessor="tsid"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'cname', title: 'Category', sortable: true },
          { accessor: 'sname', title: 'Skill', sortable: true },
          { accessor: 'experience', title: 'Experience', sortable: true, render: (s) => `${s.experience} ${s.type}` },
          {
            accessor: 'rate_per_hours',
            title: 'Rate per hour ($)',
            sortable: true,
            textAlign: 'right',
            render: (s) => formatUsd(s.rate_per_hours),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (s) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowLink to={`/trainer/skill-update/${s.tsid}`} label={`Edit ${s.sname}`}>
                  Edit
                </RowLink>
                <DeleteButton label={`Delete ${s.sname}`} onClick={() => remove(s.tsid, s.sname)} />
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

interface Values extends Record<string, unknown> {
  category_id: string | null;
  skill_id: string | null;
  experience: number | string;
  type: string | null;
  rate_per_hours: number | string;
}

/** Adds a skill to the chosen category; the button waits for a category (spec 02 §2). */
/** `onAdded` gets the new skill's id (the contract's write answer has it optional; /create-skill always sends it). */
function NewSkill({ categoryId, onAdded }: { categoryId: string | null; onAdded: (id: number | undefined) => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    if (!name.trim()) return setError('The name field is required.');
    setBusy(true);
    try {
      const res = await apiPost('create-skill', { name, category_id: categoryId });
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-skills'] });
      setName('');
      setError(null);
      onAdded(res.id);
    } catch (e) {
      const mapped = toFormErrors(e);
      setError(mapped.fields.name ?? mapped.fields.category_id ?? mapped.other_error ?? errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group align="flex-end">
      <TextInput
        label="New skill name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={error}
        disabled={!categoryId}
      />
      <Button variant="light" onClick={add} disabled={!categoryId} loading={busy}>
        Add Skill
      </Button>
    </Group>
  );
}

function SkillForm({ current }: { current?: TrainerSkill }) {
  const saved = useSaved('trainer-skill-list', LIST);
  const api = useApiForm<Values, 'update-trainer-skill' | 'add-trainer-skill'>({
    path: current ? 'update-trainer-skill' : 'add-trainer-skill',
    initialValues: {
      category_id: current ? String(current.category_id) : null,
      skill_id: current ? String(current.skill_id) : null,
      experience: current?.experience ?? '',
      type: current?.type ?? 'Year',
      rate_per_hours: current?.rate_per_hours ?? '',
    },
    validate: {
      category_id: (v) => (v ? null : 'The category id field is required.'),
      skill_id: (v) => (v ? null : 'The skill id field is required.'),
      experience: (v) => (v === '' ? 'The experience field is required.' : null),
      rate_per_hours: (v) => (v === '' ? 'The rate per hours field is required.' : null),
    },
    toBody: (v) => ({ ...v, ...(current ? { id: current.tsid } : {}) }),
    onSuccess: saved,
  });
  const { form } = api;
  const categories = useApiQuery('skill-categories');
  const categoryId = form.values.category_id;
  const skills = useApiQuery('get-skills', { category_id: categoryId }, { enabled: !!categoryId });
  return (
    <FormCard label="Skill" {...api} back={LIST}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Category"
          withAsterisk
          searchable
          data={(categories.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          {...form.getInputProps('category_id')}
          onChange={(v) => {
            form.setFieldValue('category_id', v);
            form.setFieldValue('skill_id', null);
          }}
        />
        <Select
          label="Skill"
          withAsterisk
          searchable
          disabled={!categoryId}
          data={(skills.data?.list ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          {...form.getInputProps('skill_id')}
        />
      </SimpleGrid>
      <NewSkill categoryId={categoryId} onAdded={(id) => form.setFieldValue('skill_id', String(id))} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NumberInput label="Experience" withAsterisk min={0} max={600} {...form.getInputProps('experience')} />
        <Select
          label="Unit (Month or Year)"
          data={[...EXPERIENCE_TYPES]}
          allowDeselect={false}
          {...form.getInputProps('type')}
        />
        <NumberInput
          label="Rate per hour ($)"
          description={RATE_CURRENCY_NOTE}
          withAsterisk
          min={1}
          max={10000}
          {...form.getInputProps('rate_per_hours')}
        />
      </SimpleGrid>
    </FormCard>
  );
}

/** /trainer/skill-add */
export function SkillAddPage() {
  return <AddRecordPage form={<SkillForm />} />;
}

/** /trainer/skill-update/:id */
export function SkillUpdatePage() {
  return (
    <UpdateRecordPage
      get="get-trainer-skill"
      id={Number(useParams().id)}
      form={(s) => <SkillForm key={s.tsid} current={s} />}
    />
  );
}
