import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { WaitingForHostModal } from '../../ui/WaitingForHostModal';
import { conferencePath, trainingDetailsPath } from './format';

/** What Start needs of a training; `totalTopics` is unknown on the dashboard (then the server is asked). */
export interface StartableTraining {
  slug: string;
  totalTopics?: number;
}

/**
 * Start of a training by a learner (spec 01 §2, §4): with topics → the trainee page; otherwise the
 * start status decides: 1 opens the conference in a new window, 0 shows the waiting dialog whose
 * 'Join Again' asks again.
 */
export function useStartTraining() {
  const navigate = useNavigate();
  const [waitingFor, setWaitingFor] = useState<StartableTraining | null>(null);
  const [busySlug, setBusySlug] = useState<string | null>(null);
  const [retryError, setRetryError] = useState<string | null>(null);

  async function decide(training: StartableTraining): Promise<'topics' | 'open' | 'wait'> {
    if (training.totalTopics === undefined) {
      const check = await apiPost('check-training-status', { slug: training.slug });
      if (check.totalTopics > 0) return 'topics';
      return check.start_status === 1 ? 'open' : 'wait';
    }
    if (training.totalTopics > 0) return 'topics';
    const { status } = await apiPost('lpu/training-start-status', { slug: training.slug });
    return status === 1 ? 'open' : 'wait';
  }

  async function start(training: StartableTraining, fromDialog = false) {
    setBusySlug(training.slug);
    setRetryError(null);
    try {
      const next = await decide(training);
      if (next === 'topics') {
        setWaitingFor(null);
        navigate(trainingDetailsPath(training.slug));
      } else if (next === 'open') {
        setWaitingFor(null);
        window.open(conferencePath(training.slug), '_blank');
      } else {
        setWaitingFor(training);
      }
    } catch (error) {
      if (fromDialog) setRetryError(errorText(error));
      else notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setBusySlug(null);
    }
  }

  const dialog = (
    <WaitingForHostModal
      opened={waitingFor !== null}
      onClose={() => {
        setWaitingFor(null);
        setRetryError(null);
      }}
      onRetry={() => {
        if (waitingFor) void start(waitingFor, true);
      }}
      retrying={busySlug !== null && busySlug === waitingFor?.slug}
      error={retryError}
    />
  );

  return { start: (t: StartableTraining) => start(t), busySlug, dialog };
}
