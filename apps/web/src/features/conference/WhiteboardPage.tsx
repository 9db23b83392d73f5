import { Alert, Group, Select, Stack } from '@mantine/core';
import { MANAGER_ROLES, PAGING, TRAINING_STAFF_ROLES } from '@trainlab/contract';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ApiRequest } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { Whiteboard } from './Whiteboard';
import { type BoardScene, forSaving, sceneTooLarge, toBoardScene } from './whiteboard-scene';

const SAVE_AFTER_MS = 1200;
const FRAME_HEIGHT = 560;

/**
 * The caller's trainings to pick from, by the list each role has: a manager's tenant's upcoming
 * trainings, a trainer's assigned ones, a learner's own (first page each: the newest are the live ones).
 */
type TrainingsPath = 'all-trainings' | 'trainer/assigned-trainings' | 'lpu/get-trainings';
function trainingsCall(roles: readonly string[]): [TrainingsPath, ApiRequest<TrainingsPath>] {
  if (MANAGER_ROLES.some((r) => roles.includes(r))) return ['all-trainings', {}];
  if (roles.includes('trainer')) return ['trainer/assigned-trainings', {}];
  return ['lpu/get-trainings', { page: 1, per_page: PAGING.maxPerPage }];
}

/** /white-board: the whiteboard of a training outside a meeting (?slug= or a select of the caller's trainings). */
export function WhiteboardPage() {
  const [params, setParams] = useSearchParams();
  const slug = params.get('slug') ?? '';
  const roles = useSession()?.roles ?? [];
  const trainings = useApiQuery(...trainingsCall(roles));
  const [scene, setScene] = useState<BoardScene | null>(null);
  const [error, setError] = useState<string | null>(null);
  // moderators draw (the server decides whose training it is); learners look
  const [canEdit, setCanEdit] = useState(TRAINING_STAFF_ROLES.some((r) => roles.includes(r)));
  const [saved, setSaved] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!slug) return;
    setScene(null);
    setError(null);
    apiPost('get-whiteboard', { slug })
      .then((res) => setScene(toBoardScene(res.success.scene)))
      .catch((e) => setError(errorText(e)));
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [slug]);

  const onChange = (next: BoardScene) => {
    setScene(next);
    if (timer.current) clearTimeout(timer.current);
    const stored = forSaving(next);
    if (sceneTooLarge(stored)) {
      setSaved(null);
      setError('The whiteboard is too large to save (512 KB). Remove some drawings.');
      return;
    }
    setError(null);
    timer.current = setTimeout(() => {
      apiPost('save-whiteboard', { slug, scene: { ...stored } })
        .then((r) => setSaved(r.message))
        .catch((e) => {
          setCanEdit(false);
          setError(errorText(e));
        });
    }, SAVE_AFTER_MS);
  };

  const options = (trainings.data?.list ?? []).map((t) => ({ value: t.slug, label: t.name }));
  return (
    <Stack gap="sm" maw={1100} mx="auto">
      <PageHeader title="Whiteboard" />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label="Training"
          placeholder={trainings.isLoading ? 'Loading…' : 'Pick a training'}
          data={options.some((o) => o.value === slug) || !slug ? options : [{ value: slug, label: slug }, ...options]}
          value={slug || null}
          onChange={(v) => setParams(v ? { slug: v } : {})}
          searchable
          nothingFoundMessage="No Data Found"
          w={{ base: '100%', sm: 360 }}
        />
        {saved ? (
          <Alert color="teal" py={6}>
            {saved}
          </Alert>
        ) : null}
      </Group>
      {error ? <ErrorAlert message={error} /> : null}
      {trainings.error ? <ErrorAlert message={errorText(trainings.error)} /> : null}
      {!slug ? (
        <EmptyState message="Pick a training to open its whiteboard." />
      ) : scene === null && !error ? (
        <Loading />
      ) : scene ? (
        <Whiteboard
          key={slug}
          scene={scene}
          readOnly={!canEdit}
          onChange={canEdit ? onChange : undefined}
          height={FRAME_HEIGHT}
          viewerHint="View only: the training's host edits this whiteboard."
        />
      ) : null}
    </Stack>
  );
}
