import {
  ActionIcon,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { QUESTION_LEVELS } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { ImportPanel } from '../../ui/ImportPanel';
import { PageHeader } from '../../ui/PageHeader';
import type { Question } from './types';

const BLANK = {
  language_identified: '',
  question_category: '',
  question_type: 'Multiple choice',
  question: '',
  option1: '',
  option2: '',
  option3: '',
  option4: '',
  correct_option: 1 as number | string,
  level: 'Beginner',
};

/** Add (no `question`) or edit one question of the caller's bank. */
export function QuestionForm({ question, onDone }: { question?: Question; onDone: () => void }) {
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm<typeof BLANK, 'update-question' | 'add-question'>({
    path: question ? 'update-question' : 'add-question',
    initialValues: question
      ? {
          language_identified: question.language_identified,
          question_category: question.question_category,
          question_type: question.question_type,
          question: question.question,
          option1: question.option1,
          option2: question.option2,
          option3: question.option3,
          option4: question.option4,
          correct_option: question.correct_option,
          level: question.level,
        }
      : BLANK,
    toBody: (v) => (question ? { ...v, id: question.id } : v),
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['get-question-bank'] });
      await client.invalidateQueries({ queryKey: ['get-language-identified'] });
      onDone();
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <ErrorAlert message={otherError} />
        <Group grow align="flex-start">
          <TextInput label="Language" withAsterisk {...form.getInputProps('language_identified')} />
          <TextInput label="Category" withAsterisk {...form.getInputProps('question_category')} />
        </Group>
        <Group grow align="flex-start">
          <TextInput label="Question type" withAsterisk {...form.getInputProps('question_type')} />
          <Select
            label="Level"
            withAsterisk
            data={[...QUESTION_LEVELS]}
            allowDeselect={false}
            {...form.getInputProps('level')}
          />
        </Group>
        <Textarea label="Question" withAsterisk autosize minRows={2} {...form.getInputProps('question')} />
        {[1, 2, 3, 4].map((n) => (
          <TextInput key={n} label={`Option ${n}`} withAsterisk {...form.getInputProps(`option${n}`)} />
        ))}
        <NumberInput
          label="Correct option (1–4)"
          withAsterisk
          min={1}
          max={4}
          allowDecimal={false}
          {...form.getInputProps('correct_option')}
        />
        <FormActions onCancel={onDone} submitting={submitting} />
      </Stack>
    </form>
  );
}

/**
 * /question-bank/show: the caller's bank and the shared bank; searchable, paged; add, edit, delete.
 * For the admin it is the shared bank itself, which the admin keeps and every tenant draws from.
 */
export function QuestionBankPage() {
  const title = useRouteTitle();
  const keepsShared = useSession()?.roles.includes('admin') ?? false;
  const client = useQueryClient();
  const { list, query: q } = usePagedQuery('get-question-bank');
  const [editing, setEditing] = useState<Question | 'new' | null>(null);

  const remove = (row: Question) =>
    confirmAction({
      title: 'Delete question',
      message: 'Delete this question from the bank?',
      danger: true,
      onConfirm: async () => {
        try {
          const res = await apiPost('delete-question', { id: row.id });
          notifications.show({ color: 'red', message: res.message });
          await client.invalidateQueries({ queryKey: ['get-question-bank'] });
        } catch (e) {
          notifications.show({ color: 'red', message: errorText(e) });
        }
      },
    });

  const columns: DataTableColumn<Question>[] = [
    { accessor: 'question', title: 'Question', sortable: true },
    { accessor: 'language_identified', title: 'Language', sortable: true },
    { accessor: 'question_category', title: 'Category', sortable: true },
    { accessor: 'level', title: 'Level', sortable: true },
    {
      accessor: 'correct_option',
      title: 'Correct answer',
      render: (r) => r[`option${r.correct_option}` as 'option1'] || `Option ${r.correct_option}`,
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (r) =>
        r.shared && !keepsShared ? (
          'Shared'
        ) : (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit question ${r.id}`} onClick={() => setEditing(r)}>
                <IconEdit size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete question ${r.id}`} onClick={() => remove(r)}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={keepsShared ? 'Shared Question Bank' : title}
        description={
          keepsShared
            ? 'Questions published here are visible to every tenant when they build pre- and post-assessments.'
            : 'Your questions and the shared bank, used to build pre- and post-assessments.'
        }
        actions={
          <>
            <Button
              component={Link}
              to="/question-bank/add"
              variant="default"
              leftSection={<IconUpload size={16} aria-hidden />}
            >
              Upload Questions
            </Button>
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
              Add Question
            </Button>
          </>
        }
      />
      <DataTable
        label="Question bank"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add Question' : 'Edit Question'}
        size="lg"
      >
        {editing !== null ? (
          <QuestionForm question={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Stack>
  );
}

/** /question-bank/add: the Excel upload with its template; back to the syllabus it was opened from. */
export function QuestionBankUploadPage() {
  const title = useRouteTitle();
  const [params] = useSearchParams();
  const slug = params.get('slug');
  const back = slug ? `/training-syllabus/${encodeURIComponent(slug)}` : '/question-bank/show';
  return (
    <Stack gap="md">
      <BackLink to={back}>{slug ? 'Back to syllabus' : 'Back to question bank'}</BackLink>
      <PageHeader
        title={title}
        description="Columns: language_identified, question_category, question_type, question, option1–option4, correct_option (1–4), level (Beginner, Intermediate, Advanced)."
      />
      <ImportPanel title="Upload question bank" path="upload-question-bank" templateType="question-bank" />
      <Group>
        <Button component={Link} to="/question-bank/show" variant="default">
          View question bank
        </Button>
      </Group>
    </Stack>
  );
}
