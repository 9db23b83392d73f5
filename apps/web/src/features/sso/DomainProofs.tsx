import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { SsoDomainState, SsoSettings } from '@trainlab/contract';
import { useState } from 'react';
import { errorText } from '../../api/client';
import { useApiMutation } from '../../api/use-api';
import { CopyValue } from '../../ui/CopyValue';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';

/**
 * The saved domains and their proof: a domain routes people to the provider only once verified,
 * by the TXT record shown here ('Check now' looks it up) or by the TrainLab administrator
 * (`asAdmin`: the admin's view of an organization, with 'Mark verified').
 */
export function DomainProofs({ settings, asAdmin }: { settings: SsoSettings; asAdmin: boolean }) {
  const check = useApiMutation('check-sso-domain', ['sso-settings']);
  const mark = useApiMutation('verify-sso-domain', ['sso-settings']);
  const [result, setResult] = useState<{ domain: string; ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (settings.domain_states.length === 0) return null;

  const run = async (state: SsoDomainState, action: 'check' | 'mark') => {
    setBusy(`${action}:${state.domain}`);
    setResult(null);
    const owner = asAdmin ? { organization_id: settings.organization_id } : {};
    try {
      const answer =
        action === 'check'
          ? await check.mutateAsync({ ...owner, domain: state.domain })
          : // only the administrator marks (asAdmin), so the organization is always named
            await mark.mutateAsync({
              organization_id: settings.organization_id,
              domain: state.domain,
              verified: !state.verified,
            });
      setResult({ domain: state.domain, ok: true, text: answer.message });
    } catch (e) {
      setResult({ domain: state.domain, ok: false, text: errorText(e) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Domain verification
        </Title>
        <Text size="sm">
          A domain sends people to your identity provider only once it is verified. Publish a TXT record with the value
          below at the name shown (or at the domain itself), then choose Check now.
        </Text>
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Domain verification" verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Domain</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>TXT record</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {settings.domain_states.map((s) => (
                <Table.Tr key={s.domain}>
                  <Table.Td>{s.domain}</Table.Td>
                  <Table.Td>
                    <Badge color={s.verified ? 'green' : 'gray'} variant="light">
                      {s.verified ? 'Verified' : 'Not verified'}
                    </Badge>
                    {s.verified && s.verified_by === 'admin' ? (
                      <Text size="xs" c="dimmed">
                        by the administrator
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      <CopyValue label={`TXT name for ${s.domain}`} value={s.record_name} />
                      <CopyValue label={`TXT value for ${s.domain}`} value={s.record_value} />
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      {s.verified ? null : (
                        <Button
                          size="xs"
                          variant="light"
                          loading={busy === `check:${s.domain}`}
                          disabled={busy !== null}
                          onClick={() => void run(s, 'check')}
                          aria-label={`Check now ${s.domain}`}
                        >
                          Check now
                        </Button>
                      )}
                      {asAdmin ? (
                        <Button
                          size="xs"
                          variant="default"
                          loading={busy === `mark:${s.domain}`}
                          disabled={busy !== null}
                          onClick={() => void run(s, 'mark')}
                          aria-label={`${s.verified ? 'Mark not verified' : 'Mark verified'} ${s.domain}`}
                        >
                          {s.verified ? 'Mark not verified' : 'Mark verified'}
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {result?.ok ? <SuccessAlert message={`${result.domain}: ${result.text}`} /> : null}
        {result && !result.ok ? <ErrorAlert message={`${result.domain}: ${result.text}`} /> : null}
      </Stack>
    </Paper>
  );
}
