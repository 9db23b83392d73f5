import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useState } from 'react';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { PageHeader } from '../../ui/PageHeader';
import { type Category, IconAction, required } from './shared';

function CategoryForm({ category, onDone }: { category: Category | null; onDone: () => void }) {
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: category ? 'update-category' : 'create-category',
    initialValues: { name: category?.name ?? '' },
    validate: { name: required('name') },
    toBody: (v) => (category ? { id: category.id, name: v.name.trim(), slug: category.slug } : { name: v.name.trim() }),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message || (category ? MSG.recordUpdated : MSG.recordAdded) });
      await client.invalidateQueries({ queryKey: ['category-list'] });
      onDone();
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <ErrorAlert message={otherError} />
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <FormActions onCancel={onDone} submitting={submitting} submitLabel={category ? 'Update' : 'Save'} />
      </Stack>
    </form>
  );
}

/** /admin/categories: the categories with one Add/Edit modal. */
export function CategoriesPage() {
  const title = useRouteTitle();
  const q = useApiQuery('category-list');
  /** null: closed; 'new': adding; a category: editing it */
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const columns: DataTableColumn<Category>[] = [
    { accessor: 'name', title: 'Name' },
    { accessor: 'slug', title: 'Slug' },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (c) => (
        <Group justify="flex-end">
          <IconAction label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
            <IconEdit size={16} aria-hidden />
          </IconAction>
        </Group>
      ),
    },
  ];
  const current = editing === 'new' ? null : editing;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            Add Category
          </Button>
        }
      />
      <DataTable
        label="Categories"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={['name', 'slug']}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={current ? 'Edit Category' : 'Add Category'}
      >
        {editing !== null ? (
          <CategoryForm key={current?.id ?? 'new'} category={current} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Stack>
  );
}
