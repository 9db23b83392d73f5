import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconCertificate, IconPlayerPlay } from '@tabler/icons-react';
import type { learnerTrainingList } from '@trainlab/contract';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { certificatePath, formatDateTime } from './format';
import { useStartTraining } from './use-start-training';

type LearnerTraining = z.infer<typeof learnerTrainingList>['list'][number];

/** On exactly '/my-trainings/' the window closes itself after this long (spec 01 §9). */
export const SELF_CLOSE_MS = 2000;

/** /my-trainings: the signed-in learner's enrolments with Start and the certificate link. */
export function MyTrainingsPage() {
  const title = useRouteTitle();
  const { pathname } = useLocation();
  const { list, query } = usePagedQuery('lpu/get-trainings');
  const { start, busySlug, dialog } = useStartTraining();

  useEffect(() => {
    if (pathname !== '/my-trainings/') return;
    const timer = window.setTimeout(() => window.close(), SELF_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [pathname]);

  return (
    <>
      <PageHeader title={title} description="Trainings you are enrolled in." />
      <DataTable<LearnerTraining>
        label="My trainings"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'name', title: 'Name', sortable: true },
          { accessor: 'start_date', title: 'Start Date', sortable: true, render: (t) => formatDateTime(t.start_date) },
          { accessor: 'end_date', title: 'End Date', sortable: true, render: (t) => formatDateTime(t.end_date) },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (t) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  leftSection={<IconPlayerPlay size={14} aria-hidden />}
                  loading={busySlug === t.slug}
                  onClick={() => void start({ slug: t.slug, totalTopics: t.totalTopics })}
                  aria-label={`Start ${t.name}`}
                >
                  Start
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  component={Link}
                  to={`/assessment?slug=${encodeURIComponent(t.slug)}`}
                  aria-label={`Tests of ${t.name}`}
                >
                  Tests
                </Button>
                {t.is_download_certificate === 1 ? (
                  <Tooltip label="Certificate">
                    <ActionIcon
                      component={Link}
                      to={certificatePath(t.slug)}
                      variant="light"
                      color="teal"
                      size="lg"
                      aria-label="Certificate"
                    >
                      <IconCertificate size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ) : null}
              </Group>
            ),
          },
        ]}
      />
      {dialog}
    </>
  );
}
