import { Anchor, Button, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { AuthCard } from '../auth/AuthCard';
import { required } from './shared';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** /register-organization: an organization applies; it waits for the admin's approval (spec 01 §5). */
export function RegisterOrganizationPage() {
  const [success, setSuccess] = useState<string | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm({
    path: 'create-organization',
    initialValues: { name: '', email: '', org_domain: '', sp_link: '', ip_link: '', description: '' },
    validate: {
      name: required('name'),
      email: (v) => required('email')(v) ?? (EMAIL.test(v.trim()) ? null : 'The email must be a valid email address.'),
      org_domain: required('org domain'),
      ip_link: required('ip link'),
    },
    toBody: (v) => ({
      name: v.name.trim(),
      email: v.email.trim(),
      org_domain: v.org_domain.trim(),
      ip_link: v.ip_link.trim(),
      sp_link: v.sp_link.trim() || null,
      description: v.description.trim() || null,
    }),
    onSuccess: (data) => {
      setSuccess(data.message);
      form.reset();
    },
  });

  return (
    <AuthCard title="Register Organization" subtitle="Apply for an organization account; the admin approves it.">
      {success ? (
        <Stack gap="sm">
          <SuccessAlert message={success} />
          <Text size="sm">
            Once approved you will get a mail.{' '}
            <Anchor component={Link} to="/login">
              Go to Login
            </Anchor>
          </Text>
        </Stack>
      ) : (
        <>
          <ErrorAlert message={otherError} />
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <TextInput label="Organization name" withAsterisk {...form.getInputProps('name')} />
              <TextInput
                label="Email"
                type="email"
                autoComplete="email"
                withAsterisk
                {...form.getInputProps('email')}
              />
              <TextInput
                label="Organization domain"
                description="The e-mail domain of your organization, e.g. acme.com"
                withAsterisk
                {...form.getInputProps('org_domain')}
              />
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput label="IdP link" placeholder="https://…" withAsterisk {...form.getInputProps('ip_link')} />
                <TextInput label="SP link" placeholder="https://…" {...form.getInputProps('sp_link')} />
              </SimpleGrid>
              <Textarea label="Description" autosize minRows={3} {...form.getInputProps('description')} />
              <Button type="submit" loading={submitting} fullWidth>
                Register
              </Button>
              <Text size="sm" ta="center">
                Already have an account?{' '}
                <Anchor component={Link} to="/login">
                  Login
                </Anchor>
              </Text>
            </Stack>
          </form>
        </>
      )}
    </AuthCard>
  );
}
