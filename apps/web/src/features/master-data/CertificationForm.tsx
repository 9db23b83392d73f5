import { Button, Grid, Group, NativeSelect, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { CERTIFICATION_LEVELS, type CertificationMasterType } from '@trainlab/contract';
import { useState } from 'react';
import type { ApiAnswer } from '../../api/call-types';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { CertificationMasterModal, MASTER_TYPE_LABELS } from './CertificationMasterModal';
import { type Certification, numText, orNull, required } from './shared';

export interface CertificationValues extends Record<string, unknown> {
  name: string;
  level: string;
  certification_type: string;
  product: string;
  role: string;
  exam: string;
  certification_role: string;
  exam_link: string;
  product_link: string;
  duration: string;
  recommended_experiance: string;
  cost_doller: string;
  cost_inr: string;
  certification_description: string;
  certification_prerequisites: string;
  certification_details: string;
  remark: string;
}

export const EMPTY_CERTIFICATION: CertificationValues = {
  name: '',
  level: '',
  certification_type: '',
  product: '',
  role: '',
  exam: '',
  certification_role: '',
  exam_link: '',
  product_link: '',
  duration: '',
  recommended_experiance: '0',
  cost_doller: '',
  cost_inr: '',
  certification_description: '',
  certification_prerequisites: '',
  certification_details: '',
  remark: '',
};

export function certificationValues(c: Certification): CertificationValues {
  return {
    name: c.name,
    level: c.level,
    certification_type: numText(c.certification_type_id),
    product: numText(c.product),
    role: numText(c.role),
    exam: numText(c.exam),
    certification_role: numText(c.certification_role_id),
    exam_link: c.exam_link ?? '',
    product_link: c.product_link ?? '',
    duration: c.duration ?? '',
    recommended_experiance: numText(c.recommended_experience),
    cost_doller: numText(c.cost_doller),
    cost_inr: numText(c.cost_inr),
    certification_description: c.certification_description ?? '',
    certification_prerequisites: c.certification_prerequisites ?? '',
    certification_details: c.certification_details ?? '',
    remark: c.remark ?? '',
  };
}

/** The pick-list fields and the master type of their items. */
type PickField = 'certification_type' | 'product' | 'role' | 'exam' | 'certification_role';
const PICKS: { field: PickField; type: CertificationMasterType }[] = [
  { field: 'certification_type', type: 'CertificationType' },
  { field: 'product', type: 'Product' },
  { field: 'role', type: 'RolesType' },
  { field: 'exam', type: 'Exam' },
  { field: 'certification_role', type: 'CertificationRoles' },
];

const num = (v: string) => (v.trim() === '' ? null : Number(v));

function toBody(v: CertificationValues) {
  return {
    name: v.name.trim(),
    level: v.level,
    certification_type: num(v.certification_type),
    product: num(v.product),
    role: num(v.role),
    exam: num(v.exam),
    certification_role: num(v.certification_role),
    exam_link: orNull(v.exam_link),
    product_link: orNull(v.product_link),
    duration: orNull(v.duration),
    recommended_experiance: v.recommended_experiance.trim() === '' ? 0 : v.recommended_experiance.trim(),
    cost_doller: v.cost_doller.trim(),
    cost_inr: v.cost_inr.trim(),
    certification_description: v.certification_description.trim(),
    certification_prerequisites: orNull(v.certification_prerequisites),
    certification_details: orNull(v.certification_details),
    remark: orNull(v.remark),
  };
}

function MasterSelect({
  type,
  inputProps,
  onAdd,
}: {
  type: CertificationMasterType;
  inputProps: ReturnType<UseFormReturnType<CertificationValues>['getInputProps']>;
  onAdd: () => void;
}) {
  const q = useApiQuery('certification-master-list', { type });
  const label = MASTER_TYPE_LABELS[type];
  const data = [
    { value: '', label: q.isLoading ? 'Loading…' : `Select ${label}` },
    ...(q.data?.list ?? []).map((m) => ({ value: String(m.id), label: m.name })),
  ];
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <NativeSelect label={label} withAsterisk data={data} style={{ flex: 1 }} {...inputProps} />
      <Button
        variant="light"
        mt={25}
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={onAdd}
        aria-label={`Add New ${label}`}
      >
        Add New
      </Button>
    </Group>
  );
}

type CertificationPath = 'create-certification' | 'update-certification';

interface Props {
  path: CertificationPath;
  initialValues: CertificationValues;
  /** the record id sent with an update */
  id?: number;
  submitLabel: string;
  onSuccess: (data: ApiAnswer<CertificationPath>) => void;
}

/** The certification create/update form with its 'Add New' master shortcuts. */
export function CertificationForm({ path, initialValues, id, submitLabel, onSuccess }: Props) {
  const [adding, setAdding] = useState<CertificationMasterType | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm<CertificationValues, CertificationPath>({
    path,
    initialValues,
    validate: {
      name: required('name'),
      level: required('level'),
      certification_type: required('certification type'),
      product: required('product'),
      role: required('role'),
      exam: required('exam'),
      certification_role: required('certification role'),
      cost_doller: required('cost doller'),
      cost_inr: required('cost inr'),
      certification_description: required('certification description'),
    },
    toBody: (v) => (id === undefined ? toBody(v) : { id, ...toBody(v) }),
    onSuccess,
  });
  const addingField = PICKS.find((p) => p.type === adding)?.field;

  return (
    <Paper withBorder radius="md" p="lg">
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate aria-label="Certification">
        <Stack gap="md">
          <Grid>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <NativeSelect
                label="Level"
                withAsterisk
                data={[{ value: '', label: 'Select Level' }, ...CERTIFICATION_LEVELS]}
                {...form.getInputProps('level')}
              />
            </Grid.Col>
            {PICKS.map((p) => (
              <Grid.Col key={p.field} span={{ base: 12, md: 6 }}>
                <MasterSelect type={p.type} inputProps={form.getInputProps(p.field)} onAdd={() => setAdding(p.type)} />
              </Grid.Col>
            ))}
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput label="Exam Link" type="url" placeholder="https://" {...form.getInputProps('exam_link')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput
                label="Product Link"
                type="url"
                placeholder="https://"
                {...form.getInputProps('product_link')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="Duration" placeholder="e.g. 130 minutes" {...form.getInputProps('duration')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput
                label="Recommended Experience (years)"
                inputMode="decimal"
                {...form.getInputProps('recommended_experiance')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="Cost ($)" withAsterisk inputMode="decimal" {...form.getInputProps('cost_doller')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
              <TextInput label="Cost (₹)" withAsterisk inputMode="decimal" {...form.getInputProps('cost_inr')} />
            </Grid.Col>
            <Grid.Col span={12}>
              <Textarea
                label="Certification Description"
                withAsterisk
                autosize
                minRows={3}
                {...form.getInputProps('certification_description')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Textarea
                label="Certification Prerequisites"
                autosize
                minRows={3}
                {...form.getInputProps('certification_prerequisites')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Textarea
                label="Certification Details"
                autosize
                minRows={3}
                {...form.getInputProps('certification_details')}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Textarea label="Remark" autosize minRows={2} {...form.getInputProps('remark')} />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" loading={submitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
      <CertificationMasterModal
        type={adding}
        onClose={() => setAdding(null)}
        onCreated={(newId) => {
          if (addingField && newId !== undefined) form.setFieldValue(addingField, String(newId));
        }}
      />
    </Paper>
  );
}
