import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCertificate, IconDownload, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorText } from '../../api/client';
import { apiDownload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { verifyPath } from './format';

export const NOT_ENROLLED = 'You are not enrolled in this training, so there is no certificate for you.';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" tt="uppercase" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fw={500}>{value}</Text>
    </Stack>
  );
}

/** Why there is no certificate: 403 (not allowed yet, attendance too low) or 404 (not enrolled). */
function Refusal({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconLock aria-hidden />}
        title="Certificate not available"
        role="alert"
      >
        {errorText(error)}
      </Alert>
    );
  }
  if (error instanceof ApiError && error.status === 404) return <EmptyState message={NOT_ENROLLED} />;
  return <ErrorAlert message={errorText(error)} />;
}

/** /certificate/:slug — the learner's certificate of a training: facts, PDF download, verify link. */
export function CertificatePage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const query = useApiQuery('lpu/download-certificate', { slug });
  const [downloading, setDownloading] = useState(false);
  const cert = query.data?.list[0];

  async function download(ref: string) {
    setDownloading(true);
    try {
      await apiDownload('certificate-pdf', { slug }, `certificate-${ref}.pdf`);
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <Button
            component={Link}
            to="/my-trainings"
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            My Trainings
          </Button>
        }
      />
      {query.isLoading ? (
        <Loading />
      ) : query.error ? (
        <Refusal error={query.error} />
      ) : !cert ? (
        <EmptyState />
      ) : (
        <Card withBorder radius="md" padding="xl" maw={760} component="section" aria-labelledby="cert-title">
          <Group gap="sm" mb="lg" wrap="nowrap">
            <IconCertificate size={32} aria-hidden color="var(--mantine-color-teal-6)" />
            <Title id="cert-title" order={2} size="h3">
              Certificate of completion
            </Title>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" mb="xl">
            <Fact label="Name" value={cert.user_name} />
            <Fact label="Training" value={cert.training_name} />
            <Fact label="Reference no" value={cert.ref_no} />
          </SimpleGrid>
          <Group gap="sm" wrap="wrap">
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={downloading}
              onClick={() => void download(cert.ref_no)}
            >
              Download PDF
            </Button>
            <Anchor component={Link} to={verifyPath(cert.ref_no)}>
              <Group gap={4} wrap="nowrap">
                <IconShieldCheck size={16} aria-hidden /> Verify
              </Group>
            </Anchor>
          </Group>
        </Card>
      )}
    </>
  );
}
