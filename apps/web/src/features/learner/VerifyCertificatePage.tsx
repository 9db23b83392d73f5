import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCertificateOff, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { Link, useParams } from 'react-router';
import { ApiError, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { formatDate } from './format';

/** Where 'Contact' leads from an unknown certificate: the app has no contact page or address yet. */
export const CONTACT_PATH = '/comming-soon';

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

function NotFound() {
  return (
    <Card withBorder radius="md" padding="xl" maw={560}>
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden>
          <IconCertificateOff size={30} />
        </ThemeIcon>
        <Text fw={700} size="lg">
          {MSG.noCertificateFound}
        </Text>
        <Text c="dimmed" size="sm" ta="center">
          If you believe this is a mistake, please{' '}
          <Anchor component={Link} to={CONTACT_PATH} underline="always">
            Contact
          </Anchor>{' '}
          us.
        </Text>
      </Stack>
    </Card>
  );
}

/** /certificate/verify/:ref_no — public check of a certificate (spec 02 §2 'Certificates'). */
export function VerifyCertificatePage() {
  const title = useRouteTitle();
  const { ref_no: ref = '' } = useParams();
  const query = useApiQuery('verify-certificates', { ref_no: ref });
  const c = query.data?.success;

  return (
    <>
      <PageHeader title={title} description={`Reference no ${ref}`} />
      {query.isLoading ? (
        <Loading />
      ) : query.error instanceof ApiError && query.error.status === 404 ? (
        <NotFound />
      ) : query.error ? (
        <ErrorAlert message={errorText(query.error)} />
      ) : c ? (
        <Card withBorder radius="md" padding="xl" maw={760} component="section" aria-labelledby="verified-title">
          <Group justify="space-between" mb="lg" wrap="wrap" gap="sm">
            <Group gap="sm" wrap="nowrap">
              <IconRosetteDiscountCheck size={32} aria-hidden color="var(--mantine-color-green-6)" />
              <Title id="verified-title" order={2} size="h3">
                {c.training_name}
              </Title>
            </Group>
            <Badge color="teal.9" size="lg" variant="filled">
              Verified
            </Badge>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Fact label="Name" value={c.user_name} />
            <Fact label="Training" value={c.training_name} />
            <Fact label="Issued by" value={c.issuer_name} />
            <Fact label="Training period" value={`${formatDate(c.start_date)} to ${formatDate(c.end_date)}`} />
            <Fact label="Issued on" value={formatDate(c.issued_at)} />
            <Fact label="Reference no" value={c.ref_no} />
          </SimpleGrid>
        </Card>
      ) : (
        <NotFound />
      )}
    </>
  );
}
