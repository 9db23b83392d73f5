import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { SsoSettings } from '@trainlab/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { BackLink } from '../../ui/BackLink';
import { CopyValue } from '../../ui/CopyValue';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { DomainProofs } from './DomainProofs';

/** The organization's own single sign-on settings. */
export function OrgSsoSettingsPage() {
  return <SsoSettingsScreen organizationId={null} />;
}

/** The admin edits any organization's single sign-on. */
export function AdminSsoSettingsPage() {
  const { id = '' } = useParams();
  return <SsoSettingsScreen organizationId={Number(id) || 0} back />;
}

function SsoSettingsScreen({ organizationId, back }: { organizationId: number | null; back?: boolean }) {
  const body = organizationId === null ? {} : { organization_id: organizationId };
  const q = useApiQuery('sso-settings', body);
  return (
    <Stack gap="lg">
      {back ? <BackLink to="/admin/organizations">Organizations</BackLink> : null}
      <PageHeader
        title="Single Sign-On"
        description={
          q.data
            ? `${q.data.organization_name}: people of your e-mail domains sign in with your organization’s account.`
            : 'People of your e-mail domains sign in with your organization’s account.'
        }
      />
      {q.isPending ? <LoadingLines lines={6} /> : null}
      {q.isError ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? (
        <>
          <ServiceProviderValues settings={q.data} />
          <DomainProofs settings={q.data} asAdmin={organizationId !== null} />
          <SettingsForm settings={q.data} organizationId={organizationId} />
        </>
      ) : null}
    </Stack>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <CopyValue label={label} value={value} grow />
    </Stack>
  );
}

/** What the IT administrator enters at their identity provider. */
function ServiceProviderValues({ settings }: { settings: SsoSettings }) {
  const sp = settings.service_provider;
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Values for your identity provider
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Value label="Entity ID (SAML)" value={sp.entity_id} />
        <Value label="ACS URL (SAML)" value={sp.acs_url} />
        <Value label="Single logout URL (SAML)" value={sp.slo_url} />
        <Value label="Redirect URI (OpenID Connect)" value={sp.redirect_uri} />
      </SimpleGrid>
      <Text size="sm" mt="md">
        {settings.configured ? (
          <Anchor href={sp.metadata_url} download target="_blank" rel="noreferrer">
            Download our SAML metadata
          </Anchor>
        ) : (
          'Our SAML metadata and signing certificate are ready to download once the settings are saved.'
        )}
      </Text>
    </Paper>
  );
}

interface FormValues extends Record<string, unknown> {
  protocol: 'saml' | 'oidc';
  enabled: boolean;
  domains: string;
  saml_metadata_url: string;
  saml_metadata_xml: string;
  saml_idp_entity_id: string;
  saml_sso_url: string;
  saml_slo_url: string;
  saml_idp_cert: string;
  oidc_issuer: string;
  oidc_client_id: string;
  oidc_client_secret: string;
  group_attribute: string;
  subadmin_group: string;
  password_login_disabled: boolean;
  oidc_email_verified_not_sent: boolean;
}

function SettingsForm({ settings, organizationId }: { settings: SsoSettings; organizationId: number | null }) {
  const client = useQueryClient();
  const [saved, setSaved] = useState<string | null>(null);
  const { form, onSubmit, otherError, submitting } = useApiForm<FormValues, 'save-sso-settings'>({
    path: 'save-sso-settings',
    initialValues: {
      protocol: settings.protocol ?? 'saml',
      enabled: settings.configured ? settings.enabled : true,
      domains: settings.domains.join(', '),
      saml_metadata_url: settings.saml_metadata_url ?? '',
      saml_metadata_xml: '',
      saml_idp_entity_id: settings.saml_idp_entity_id ?? '',
      saml_sso_url: settings.saml_sso_url ?? '',
      saml_slo_url: settings.saml_slo_url ?? '',
      saml_idp_cert: settings.saml_idp_cert ?? '',
      oidc_issuer: settings.oidc_issuer ?? '',
      oidc_client_id: settings.oidc_client_id ?? '',
      oidc_client_secret: '',
      group_attribute: settings.group_attribute,
      subadmin_group: settings.subadmin_group ?? '',
      password_login_disabled: settings.password_login_disabled,
      oidc_email_verified_not_sent: settings.oidc_email_verified_not_sent,
    },
    validate: {
      domains: (v) => (v.trim() ? null : 'The domains field is required.'),
    },
    toBody: (v) => ({
      ...v,
      ...(organizationId === null ? {} : { organization_id: organizationId }),
      domains: v.domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean),
    }),
    onSuccess: (data) => {
      setSaved(data.message);
      form.setFieldValue('oidc_client_secret', '');
      form.setFieldValue('saml_metadata_xml', '');
      void client.invalidateQueries({ queryKey: ['sso-settings'] });
    },
  });
  const saml = form.values.protocol === 'saml';

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            Your identity provider
          </Title>
          <SuccessAlert message={saved} />
          <ErrorAlert message={otherError} />
          <Switch label="Single sign-on is on" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="sso-protocol-label">
              Protocol
            </Text>
            <SegmentedControl
              aria-labelledby="sso-protocol-label"
              data={[
                { value: 'saml', label: 'SAML 2.0' },
                { value: 'oidc', label: 'OpenID Connect' },
              ]}
              {...form.getInputProps('protocol')}
            />
          </Stack>
          <TextInput
            label="E-mail domains"
            description="People whose e-mail ends with one of these domains sign in here once the domain is verified (comma separated)."
            withAsterisk
            {...form.getInputProps('domains')}
          />
          {saml ? (
            <>
              <TextInput
                label="IdP metadata URL"
                description="Or paste the metadata below, or enter the SSO URL and certificate."
                {...form.getInputProps('saml_metadata_url')}
              />
              <Textarea
                label="IdP metadata XML"
                autosize
                minRows={2}
                maxRows={8}
                {...form.getInputProps('saml_metadata_xml')}
              />
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <TextInput label="IdP SSO URL" {...form.getInputProps('saml_sso_url')} />
                <TextInput label="IdP entity ID" {...form.getInputProps('saml_idp_entity_id')} />
                <TextInput label="IdP single logout URL" {...form.getInputProps('saml_slo_url')} />
              </SimpleGrid>
              <Textarea
                label="IdP signing certificate (PEM)"
                autosize
                minRows={3}
                maxRows={10}
                styles={{ input: { fontFamily: 'monospace' } }}
                {...form.getInputProps('saml_idp_cert')}
              />
            </>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <TextInput label="Issuer URL" withAsterisk {...form.getInputProps('oidc_issuer')} />
              <TextInput label="Client ID" withAsterisk {...form.getInputProps('oidc_client_id')} />
              <PasswordInput
                label="Client secret"
                withAsterisk={!settings.has_client_secret}
                description={settings.has_client_secret ? 'A secret is stored; leave blank to keep it.' : undefined}
                autoComplete="off"
                {...form.getInputProps('oidc_client_secret')}
              />
              <Checkbox
                label="The provider does not send email_verified"
                description="Only then is an ID token without the claim accepted; email_verified: false is always refused."
                {...form.getInputProps('oidc_email_verified_not_sent', { type: 'checkbox' })}
              />
            </SimpleGrid>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <TextInput
              label="Group attribute"
              description="The attribute or claim holding the person’s groups."
              {...form.getInputProps('group_attribute')}
            />
            <TextInput
              label="Sub-admin group"
              description="Members of this group become organization sub-admins."
              {...form.getInputProps('subadmin_group')}
            />
          </SimpleGrid>
          <Checkbox
            label="People of these domains may not sign in with a password"
            {...form.getInputProps('password_login_disabled', { type: 'checkbox' })}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={submitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
