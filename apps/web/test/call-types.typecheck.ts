/**
 * Typecheck-only proof of the typed client (run by `tsc -p apps/web`; not a vitest file and imported by
 * no app code, so never bundled): a call is looked up by its path, its body is checked against the
 * contract's request schema and its answer typed by the response schema, so a wrong field or path fails
 * the typecheck. Every `@ts-expect-error` below must stay an error, or the typecheck fails.
 */
import type { ApiAnswer, ApiRequest } from '../src/api/call-types';
import { apiPost } from '../src/api/client';
import { apiDownload, apiUpload } from '../src/api/upload';
import { useApiMutation, useApiQuery } from '../src/api/use-api';
import { useApiForm } from '../src/api/use-api-form';
import { usePagedQuery } from '../src/api/use-paged-query';

export const right: ApiRequest<'create-category'> = { name: 'Cloud' };
// @ts-expect-error a field the request schema does not have
export const unknownField: ApiRequest<'create-category'> = { title: 'Cloud' };
// @ts-expect-error a required field missing
export const missing: ApiRequest<'create-category'> = {};
// @ts-expect-error a field of the wrong type
export const wrongType: ApiRequest<'create-category'> = { name: 42 };
// the list convention's fields (preprocessed in the schema) may be left out
export const paging: ApiRequest<'certification-list'> = { search: 'aws' };
// @ts-expect-error a call without a request field takes none
export const nothing: ApiRequest<'get-dashboard-data'> = { page: 1 };

export const answerField = (a: ApiAnswer<'category-list'>): string | undefined => a.list[0]?.name;
// @ts-expect-error an answer field the response schema does not have
export const renamed = (a: ApiAnswer<'category-list'>) => a.list[0]?.title;
// @ts-expect-error an answer field read with the wrong type
export const wrongAnswer = (a: ApiAnswer<'create-category'>): number => a.message;

/** apiPost, apiUpload and apiDownload by path. */
export async function sendCalls(): Promise<string> {
  const created = await apiPost('create-category', { name: 'Cloud' });
  await apiPost('category-list');
  // @ts-expect-error an unknown path
  await apiPost('create-categories', { name: 'Cloud' });
  // @ts-expect-error a body field the call does not take
  await apiPost('create-category', { name: 'Cloud', title: 'Cloud' });
  // @ts-expect-error a body the call needs, left out
  await apiPost('get-certification');
  // @ts-expect-error an answer field the call does not answer
  void (await apiPost('category-list')).list[0]?.title;
  await apiUpload('upload-training-syllabus', { slug: 'python-basics', file: new Blob() });
  // @ts-expect-error a part the upload does not take
  await apiUpload('upload-training-syllabus', { slug: 'python-basics', sheet: new Blob() });
  // @ts-expect-error a download's body is checked too
  await apiDownload('certificate-pdf', { id: 1 }, 'certificate.pdf');
  return created.message;
}

/** The hooks by path: queries, paged queries, mutations and forms. */
export function useTypedCalls() {
  const categories = useApiQuery('category-list');
  const name: string | undefined = categories.data?.list[0]?.name;
  useApiQuery('get-certification', { id: 1 }, { enabled: false });
  // @ts-expect-error an unknown path
  useApiQuery('category-lists');
  // @ts-expect-error a body field the call does not take
  useApiQuery('get-certification', { ids: 1 });
  // @ts-expect-error a body the call needs, left out
  useApiQuery('get-certification');
  // @ts-expect-error an answer field the call does not answer
  void useApiQuery('category-list').data?.list[0]?.title;

  const { query } = usePagedQuery('certification-list', {}, { sort: 'name' });
  const total: number | undefined = query.data?.total;
  // @ts-expect-error not a call of the list convention
  usePagedQuery('get-dashboard-data');

  const create = useApiMutation('create-category', ['category-list']);
  void create.mutateAsync({ name: 'Cloud' });
  // @ts-expect-error a body field the call does not take
  void create.mutateAsync({ name: 'Cloud', title: 'Cloud' });
  // @ts-expect-error a read call to refresh that does not exist
  useApiMutation('create-category', ['category-lists']);

  const form = useApiForm({ path: 'create-category', initialValues: { name: '' }, onSuccess: (d) => d.message });
  useApiForm({ path: 'get-certification', initialValues: { id: '' }, toBody: (v) => ({ id: Number(v.id) }) });
  // @ts-expect-error values that are not the call's body need a toBody
  useApiForm({ path: 'create-category', initialValues: { title: '' } });
  // @ts-expect-error toBody must build the call's body
  useApiForm({ path: 'create-category', initialValues: { title: '' }, toBody: (v) => ({ title: v.title }) });
  return { name, total, form };
}
