import { ActionIcon, Alert, Anchor, Button, Group, Menu, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCertificate,
  IconCopy,
  IconDots,
  IconEdit,
  IconEye,
  IconEyeOff,
  IconListDetails,
  IconPlayerPlay,
  IconPlus,
  IconShare,
  IconTrash,
  IconUserPlus,
  IconUserStar,
  IconUsers,
} from '@tabler/icons-react';
import { MSG } from '@trainlab/contract';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { formatDateTime, PublicBadge, type TrainingRow, trainingInvite, useRowAction } from './shared';

/** The edit form and its date pickers load only when a training is edited. */
const EditTrainingForm = lazy(() => import('./EditTrainingForm').then((m) => ({ default: m.EditTrainingForm })));

async function copyInvite(t: TrainingRow) {
  try {
    await navigator.clipboard.writeText(trainingInvite(t));
    notifications.show({ color: 'green', message: MSG.trainingLinkCopied });
  } catch {
    notifications.show({ color: 'red', message: 'The link could not be copied.' });
  }
}

async function shareInvite(t: TrainingRow) {
  const text = trainingInvite(t);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: t.name, text });
      return;
    } catch {
      /* cancelled or refused: fall back to the clipboard */
    }
  }
  await copyInvite(t);
}

/** What Create Training passes on: the new training and the assessments it asked for. */
export interface CreatedTraining {
  slug: string;
  name: string;
  pre_assessment: boolean;
  post_assessment: boolean;
}

/** After Create Training with an assessment ticked: the way to its builder (issue 41: it led nowhere). */
function CreatedNext() {
  const location = useLocation();
  const created = (location.state as { created?: CreatedTraining } | null)?.created;
  if (!created || (!created.pre_assessment && !created.post_assessment)) return null;
  const which = [created.pre_assessment ? 'Pre' : null, created.post_assessment ? 'Post' : null]
    .filter(Boolean)
    .join(' and ');
  return (
    <Alert color="blue" title={`Next: the ${which} Assessment of ${created.name}`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          You ticked {which} Assessment. Pick its questions from the question bank in the assessment builder (later also
          from this list: the row’s “…” menu → Assessment).
        </Text>
        <Button
          component={Link}
          to={`/assessment/add/${created.slug}`}
          leftSection={<IconCertificate size={16} aria-hidden />}
        >
          Build the assessment
        </Button>
      </Stack>
    </Alert>
  );
}

/** /all-trainings: the upcoming trainings with their row actions (spec 01 §2 'Training screens'). */
export function AllTrainingsPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const location = useLocation();
  const { list, query: q } = usePagedQuery('all-trainings');
  const { run, busyKey } = useRowAction(['all-trainings', 'get-dashboard-data']);
  const [editing, setEditing] = useState<TrainingRow | null>(null);

  // spec 01 §9: the window opened at the trailing-slash path closes itself after 2 seconds
  useEffect(() => {
    if (location.pathname !== '/all-trainings/') return;
    const timer = window.setTimeout(() => window.close(), 2000);
    return () => window.clearTimeout(timer);
  }, [location.pathname]);

  const start = (t: TrainingRow) => {
    if (t.totalTopics > 0) navigate(`/training-syllabus/${t.slug}`);
    else window.open(`/conference/${t.slug}`, '_blank');
  };

  const remove = (t: TrainingRow) =>
    confirmAction({
      title: 'Delete training',
      message: `Delete the training "${t.name}"?`,
      danger: true,
      onConfirm: () => void run(`${t.id}-delete`, 'delete-trainings', { slug: t.slug }),
    });

  const columns: DataTableColumn<TrainingRow>[] = [
    { accessor: 'name', title: 'Name', sortable: true },
    {
      accessor: 'link',
      title: 'Meeting ID',
      width: 110,
      ellipsis: true,
      render: (t) => (
        <Anchor href={`/conference/${t.slug}`} target="_blank" rel="noopener" size="sm" title={t.link}>
          {t.link}
        </Anchor>
      ),
    },
    { accessor: 'start_date', title: 'Start Date', sortable: true, render: (t) => formatDateTime(t.start_date) },
    { accessor: 'end_date', title: 'End Date', sortable: true, render: (t) => formatDateTime(t.end_date) },
    // no fixed widths: a narrow column cut its header to 'Tot…' and 'Total Par…' (issue 41)
    { accessor: 'total_training_day', title: 'Total Day', textAlign: 'right' },
    { accessor: 'total_participants', title: 'Total Participants', sortable: true, textAlign: 'right' },
    { accessor: 'is_public', title: 'Available', width: 132, render: (t) => <PublicBadge value={t.is_public} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Users">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/show-training-users/${t.slug}`}
              aria-label={`Users of ${t.name}`}
            >
              <IconUsers size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Start">
            <ActionIcon variant="subtle" color="green" aria-label={`Start ${t.name}`} onClick={() => start(t)}>
              <IconPlayerPlay size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <Tooltip label="More: edit, syllabus, trainers, assessment…">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`More actions for ${t.name}`}
                  loading={busyKey?.startsWith(`${t.id}-`)}
                >
                  <IconDots size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={16} aria-hidden />} onClick={() => setEditing(t)}>
                Edit
              </Menu.Item>
              <Menu.Item
                leftSection={<IconListDetails size={16} aria-hidden />}
                component={Link}
                to={`/training-syllabus/${t.slug}`}
              >
                Syllabus
              </Menu.Item>
              <Menu.Item leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copyInvite(t)}>
                Copy Meeting Link
              </Menu.Item>
              <Menu.Item
                leftSection={t.is_public ? <IconEyeOff size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
                onClick={() => void run(`${t.id}-public`, 'lp-public-training', { id: t.id })}
              >
                {t.is_public ? 'Stop Public' : 'Make Public'}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconUserPlus size={16} aria-hidden />}
                component={Link}
                to={`/add-training-user/${t.slug}`}
              >
                Add User
              </Menu.Item>
              <Menu.Item
                leftSection={<IconUserStar size={16} aria-hidden />}
                component={Link}
                to={`/assing/trainer/${t.slug}`}
              >
                Assign Trainer
              </Menu.Item>
              <Menu.Item
                leftSection={<IconCertificate size={16} aria-hidden />}
                component={Link}
                to={`/assessment/add/${t.slug}`}
              >
                Assessment
              </Menu.Item>
              <Menu.Item leftSection={<IconShare size={16} aria-hidden />} onClick={() => void shareInvite(t)}>
                Share Link
              </Menu.Item>
              {t.status === 0 ? (
                <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => remove(t)}>
                  Delete
                </Menu.Item>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Trainings that have not ended yet."
        actions={
          <Button component={Link} to="/create-training" leftSection={<IconPlus size={16} aria-hidden />}>
            Create Training
          </Button>
        }
      />
      <CreatedNext />
      <DataTable
        label="Upcoming trainings"
        // whole headers make the table wider than a laptop: its actions stay in view
        pinLastColumn
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Edit ${editing.name}` : 'Edit training'}
        size="lg"
      >
        {editing ? (
          <Suspense fallback={<LoadingLines />}>
            <EditTrainingForm key={editing.id} training={editing} onDone={() => setEditing(null)} />
          </Suspense>
        ) : null}
      </Modal>
    </Stack>
  );
}
