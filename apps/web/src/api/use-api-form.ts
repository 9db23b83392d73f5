import { type FormValidateInput, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { ApiAnswer, ApiPath, ApiRequest, SendCall } from './call-types';
import { apiPost, splitFormErrors } from './client';

interface ApiFormOptions<V extends Record<string, unknown>, P extends ApiPath> {
  /** API path without the /api prefix, e.g. 'login'. */
  path: P;
  initialValues: V;
  validate?: FormValidateInput<V>;
  /** Shapes the form values into the request body. */
  toBody?: (values: V) => ApiRequest<P>;
  /** Runs before the call (may wait, e.g. to sign out first); return a message to refuse the submit with it as other_error. */
  guard?: (values: V) => string | null | Promise<string | null>;
  /** A 422 message shown at the top of the form instead of under its field (e.g. wrong credentials, which are not the email's fault). */
  atTop?: (field: string, message: string) => boolean;
  onSuccess?: (data: ApiAnswer<P>, values: V) => void;
  /** Runs after errors are shown (e.g. to clear them later). */
  onError?: () => void;
}
/** Without `toBody` the values are sent as they are, so they must then be a body the call takes. */
type Shaping<V, P extends ApiPath> = [V] extends [ApiRequest<P>] ? unknown : { toBody: (values: V) => ApiRequest<P> };

/**
 * A Mantine form bound to one API call: 422 messages land under their fields, everything else at
 * the top as `other_error`, the same way on every screen.
 */
export function useApiForm<V extends Record<string, unknown>, P extends ApiPath>(
  options: ApiFormOptions<V, P> & Shaping<V, P>,
) {
  const { path, initialValues, validate, toBody, guard, atTop, onSuccess, onError } = options;
  const form = useForm<V>({ mode: 'controlled', initialValues, validate });
  const [otherError, setOtherError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: unknown) => (apiPost as SendCall)(path, body) as Promise<ApiAnswer<P>>,
  });

  const clearAllErrors = useCallback(() => {
    setOtherError(null);
    form.clearErrors();
  }, [form.clearErrors]);

  const onSubmit = form.onSubmit(async (values) => {
    setOtherError(null);
    const refusal = await guard?.(values);
    if (refusal) {
      setOtherError(refusal);
      onError?.();
      return;
    }
    try {
      const data = await mutation.mutateAsync(toBody ? toBody(values) : values);
      onSuccess?.(data, values);
    } catch (error) {
      const { fields, top } = splitFormErrors(
        error,
        (field, message) => field in initialValues && !atTop?.(field, message),
      );
      form.setErrors(fields);
      setOtherError(top);
      onError?.();
    }
  });

  return { form, onSubmit, otherError, setOtherError, clearAllErrors, submitting: mutation.isPending };
}
