import { Button, Group, Paper, Select, Stack } from '@mantine/core';
import { type FormValidateInput, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ApiAnswer, ApiPath } from '../../api/call-types';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { apiUpload } from '../../api/upload';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/ErrorAlert';

/** IFSC, PAN, GSTIN… are shown upper-case while typed (spec 02 §5). */
export const upper = (v: string) => v.toUpperCase();

/** The picture inputs accept what the server accepts. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,.png,.jpg,.jpeg';

/**
 * A form sent as multipart (profile, certificates): text fields plus files; 422 messages land under
 * their fields like every other form.
 */
export function useUploadForm<V extends Record<string, unknown>, P extends ApiPath>(opts: {
  path: P;
  initialValues: V;
  validate?: FormValidateInput<V>;
  files: () => Record<string, File | null>;
  onSuccess: (data: ApiAnswer<P>) => void;
}) {
  const form = useForm<V>({ mode: 'controlled', initialValues: opts.initialValues, validate: opts.validate });
  const [otherError, setOtherError] = useState<string | null>(null);
  const mutation = useMutation({
    // the parts are built from the form's values and files, so they are sent as the upload sends them
    mutationFn: (fields: Record<string, string | Blob>) =>
      (apiUpload as (path: string, parts: typeof fields) => Promise<ApiAnswer<P>>)(opts.path, fields),
  });
  const onSubmit = form.onSubmit(async (values) => {
    setOtherError(null);
    const fields: Record<string, string | Blob> = {};
    for (const [k, v] of Object.entries(values)) fields[k] = v === null || v === undefined ? '' : String(v);
    for (const [k, f] of Object.entries(opts.files())) if (f) fields[k] = f;
    try {
      opts.onSuccess(await mutation.mutateAsync(fields));
    } catch (error) {
      const mapped = toFormErrors(error);
      const known: Record<string, string> = {};
      const rest: string[] = [];
      const fileKeys = Object.keys(opts.files());
      for (const [field, message] of Object.entries(mapped.fields)) {
        if (field in opts.initialValues || fileKeys.includes(field)) known[field] = message;
        else rest.push(message);
      }
      form.setErrors(known);
      setOtherError([mapped.other_error, ...rest].filter(Boolean).join(' ') || null);
    }
  });
  return { form, onSubmit, otherError, submitting: mutation.isPending };
}

/** The frame of every trainer form: the top error, the fields, Submit and a way back. */
export function FormCard(props: {
  label: string;
  onSubmit: (e?: React.FormEvent<HTMLFormElement>) => void;
  otherError: string | null;
  submitting: boolean;
  back: string;
  submitLabel?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" radius="md">
      <form onSubmit={props.onSubmit} aria-label={props.label} noValidate>
        <Stack gap="md">
          <ErrorAlert message={props.otherError} />
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={props.back}>
              Back
            </Button>
            <Button type="submit" loading={props.submitting}>
              {props.submitLabel ?? 'Submit'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Delete with a confirmation; the toast says what the server said and the list reloads. */
export function useRemove(
  path: 'delete-bank-details' | 'delete-trainer-certificate' | 'delete-trainer-reference' | 'delete-trainer-skill',
  listPath: ApiPath,
) {
  const client = useQueryClient();
  return (id: number, what: string) =>
    confirmAction({
      title: 'Delete',
      message: `Delete ${what}? This cannot be undone.`,
      danger: true,
      onConfirm: async () => {
        try {
          const res = await apiPost(path, { id });
          notifications.show({ color: 'green', message: res.message || MSG.recordDeleted });
          await client.invalidateQueries({ queryKey: [listPath] });
        } catch (error) {
          notifications.show({ color: 'red', message: errorText(error) });
        }
      },
    });
}

/** A row's Delete button. */
export function DeleteButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button size="xs" variant="light" color="red" aria-label={label} onClick={onClick}>
      Delete
    </Button>
  );
}

/** After a save: the toast, the list refreshed, back to the list. */
export function useSaved(listPath: ApiPath, to: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async (data: { message?: string }) => {
    notifications.show({ color: 'green', message: data.message || MSG.recordAdded });
    await client.invalidateQueries({ queryKey: [listPath] });
    navigate(to);
  };
}

/** The trainer's own skills to pick from (certificates and references name one). */
export function OwnSkillSelect(props: {
  value?: string | null;
  onChange: (v: string | null) => void;
  error?: ReactNode;
}) {
  const q = useQuery({
    queryKey: ['trainer-skill-list', { per_page: 100 }],
    queryFn: () => apiPost('trainer-skill-list', { per_page: 100 }),
  });
  return (
    <Select
      label="Skill"
      withAsterisk
      searchable
      nothingFoundMessage="Add a skill first"
      data={(q.data?.list ?? []).map((s) => ({ value: String(s.skill_id), label: `${s.sname} (${s.cname})` }))}
      value={props.value}
      onChange={props.onChange}
      error={props.error}
    />
  );
}
