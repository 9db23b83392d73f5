import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { PASSWORD_MIN_LENGTH } from '@trainlab/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { withNext } from '../../api/session';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { AuthCard } from './AuthCard';
import { ACCOUNT_TYPES, type Option, useOptionList } from './register-options';

export const REGISTER_REDIRECT_MS = 1500;

const required = (name: string) => (v: string) => (v.trim() ? null : `The ${name} field is required.`);

function optionData(list: Option[] | undefined, placeholder: string) {
  return [{ value: '', label: placeholder }, ...(list ?? []).map((o) => ({ value: String(o.id), label: o.name }))];
}

export function RegisterPage() {
  const navigate = useNavigate();
  // a buyer who registers from the cart signs in next and goes back there
  const next = useSearchParams()[0].get('next');
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'register',
    initialValues: {
      user_type: '',
      first_name: '',
      last_name: '',
      email: '',
      password: '',
      mobile_no: '',
      org_id: '',
      lob_id: '',
    },
    validate: {
      user_type: (v) => (v ? null : 'Please choose an account type.'),
      first_name: required('first name'),
      last_name: required('last name'),
      email: required('email'),
      password: (v) =>
        !v
          ? 'The password field is required.'
          : v.length < PASSWORD_MIN_LENGTH
            ? `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`
            : null,
      mobile_no: required('mobile no'),
      org_id: (v, values) => (values.user_type === '6' && !v ? 'The org id field is required.' : null),
      lob_id: (v, values) => (values.user_type === '6' && !v ? 'The lob id field is required.' : null),
    },
    toBody: (v) => {
      const isOrg = v.user_type === '6';
      return {
        first_name: v.first_name.trim(),
        last_name: v.last_name.trim(),
        email: v.email.trim(),
        password: v.password,
        mobile_no: v.mobile_no.trim(),
        user_type: Number(v.user_type),
        ...(isOrg ? { org_id: Number(v.org_id), lob_id: Number(v.lob_id) } : {}),
      };
    },
    onSuccess: (data) => {
      setSuccess(data.message);
      form.reset();
      timer.current = setTimeout(
        () => navigate(withNext('/login', next), { replace: true, state: { message: data.message } }),
        REGISTER_REDIRECT_MS,
      );
    },
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const isOrg = form.values.user_type === '6';
  const orgs = useOptionList('get-org-register', isOrg);
  const lobs = useOptionList('get-line-of-business', isOrg);

  return (
    <AuthCard title="Register Account" subtitle="Create your TrainLab account.">
      <SuccessAlert message={success} />
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Radio.Group label="Account type" withAsterisk {...form.getInputProps('user_type')}>
            <Group mt="xs" gap="lg">
              {ACCOUNT_TYPES.map((t) => (
                <Radio key={t.value} value={t.value} label={t.label} />
              ))}
            </Group>
          </Radio.Group>
          {isOrg ? (
            <>
              <NativeSelect
                label="Organization"
                withAsterisk
                data={optionData(orgs.data, orgs.isLoading ? 'Loading…' : 'Select organization')}
                disabled={orgs.isLoading}
                {...form.getInputProps('org_id')}
              />
              <NativeSelect
                label="Line of business"
                withAsterisk
                data={optionData(lobs.data, lobs.isLoading ? 'Loading…' : 'Select line of business')}
                disabled={lobs.isLoading}
                {...form.getInputProps('lob_id')}
              />
            </>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="First name"
              autoComplete="given-name"
              withAsterisk
              {...form.getInputProps('first_name')}
            />
            <TextInput label="Last name" autoComplete="family-name" withAsterisk {...form.getInputProps('last_name')} />
          </SimpleGrid>
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            withAsterisk
            description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            {...form.getInputProps('password')}
          />
          <TextInput
            label="Mobile no"
            type="tel"
            autoComplete="tel"
            withAsterisk
            {...form.getInputProps('mobile_no')}
          />
          <Button type="submit" loading={submitting} disabled={Boolean(success)} fullWidth>
            Register
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={withNext('/login', next)}>
              Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
