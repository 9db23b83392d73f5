import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type CertificationMasterType, MSG } from '@trainlab/contract';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { required } from './shared';

/** How each master type is named on screen. */
export const MASTER_TYPE_LABELS: Record<CertificationMasterType, string> = {
  CertificationType: 'Certification Type',
  Product: 'Product',
  RolesType: 'Role',
  Exam: 'Exam',
  CertificationRoles: 'Certification Role',
};

const needsDescription = (t: CertificationMasterType) => t === 'Exam' || t === 'RolesType';

interface Props {
  type: CertificationMasterType;
  onClose: () => void;
  /** the new item's id, to select it in the form */
  onCreated: (id: number | undefined) => void;
}

function MasterForm({ type, onClose, onCreated }: Props) {
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-certification-master',
    initialValues: { type, name: '', description: '', overview: '' },
    validate: {
      name: required('name'),
      description: (v) => (needsDescription(type) ? required('description')(v) : null),
      overview: (v) => (type === 'Exam' ? required('overview')(v) : null),
    },
    toBody: (v) => ({
      type: v.type,
      name: v.name.trim(),
      description: v.description.trim() || null,
      overview: v.overview.trim() || null,
    }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
      await client.invalidateQueries({ queryKey: ['certification-master-list'] });
      onCreated(data.id);
      onClose();
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError} />
      <Stack gap="sm">
        <TextInput label="Type" value={MASTER_TYPE_LABELS[type]} readOnly />
        <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Textarea
          label="Description"
          withAsterisk={needsDescription(type)}
          autosize
          minRows={2}
          {...form.getInputProps('description')}
        />
        <Textarea
          label="Overview"
          withAsterisk={type === 'Exam'}
          autosize
          minRows={2}
          {...form.getInputProps('overview')}
        />
        <FormActions onCancel={onClose} submitting={submitting} />
      </Stack>
    </form>
  );
}

/** 'Add New' of a certification pick-list: a certification master item of that type. */
export function CertificationMasterModal({
  type,
  ...rest
}: Omit<Props, 'type'> & { type: CertificationMasterType | null }) {
  return (
    <Modal opened={type !== null} onClose={rest.onClose} title={type ? `Add New ${MASTER_TYPE_LABELS[type]}` : ''}>
      {type ? <MasterForm key={type} type={type} {...rest} /> : null}
    </Modal>
  );
}
