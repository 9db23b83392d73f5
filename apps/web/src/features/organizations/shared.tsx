import { Badge, Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiPath, ApiRequest, SendCall } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { confirmAction } from '../../ui/confirm';

export const required = (name: string) => (v: unknown) =>
  String(v ?? '').trim() ? null : `The ${name} field is required.`;

export function YesNoBadge({ value }: { value: number | boolean }) {
  return value ? (
    <Badge color="green" variant="light">
      Yes
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      No
    </Badge>
  );
}

export function ActiveBadge({ status }: { status: number }) {
  return status === 1 ? (
    <Badge color="green" variant="light">
      Active
    </Badge>
  ) : (
    <Badge color="red" variant="light">
      Inactive
    </Badge>
  );
}

interface DecisionOptions<P extends ApiPath> {
  path: P;
  /** read calls to refresh afterwards */
  invalidates: ApiPath[];
  /** where to go after success (none: stay and reload) */
  goTo?: string;
}

interface ConfirmText {
  title: string;
  message: string;
  danger?: boolean;
}

/**
 * What useDecision gives a row. `run` is a method so that a decision of one call can be passed where
 * any of several is taken (AcceptRejectButtons).
 */
export interface Decision<P extends ApiPath> {
  run(key: string, body: ApiRequest<P>, confirm: ConfirmText): void;
  busyKey: string | null;
}

/**
 * A confirmed write from a row button (accept/reject, yes/no, activate/deactivate): asks first,
 * shows the server message as a toast (errors in red), refreshes the lists, then optionally leaves.
 */
export function useDecision<P extends ApiPath>({ path, invalidates, goTo }: DecisionOptions<P>): Decision<P> {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [busyKey, setBusyKey] = useState<string | null>(null);

  function run(key: string, body: ApiRequest<P>, confirm: ConfirmText) {
    confirmAction({
      ...confirm,
      onConfirm: async () => {
        setBusyKey(key);
        try {
          // run's signature has checked the body against the call
          const res = (await (apiPost as SendCall)(path, body)) as { message?: string } | null;
          notifications.show({ color: 'green', message: res?.message ?? 'Done' });
          await Promise.all(invalidates.map((p) => client.invalidateQueries({ queryKey: [p] })));
          if (goTo) navigate(goTo);
        } catch (error) {
          notifications.show({ color: 'red', message: errorText(error) });
        } finally {
          setBusyKey(null);
        }
      },
    });
  }
  return { run, busyKey };
}

interface AcceptRejectProps {
  /** the row's id as the call names it (`id` for providers, `odid` for sub-admins) */
  idField: 'id' | 'odid';
  id: number;
  who: string;
  /** what is decided, for the confirm titles ('request', 'sub-admin') */
  subject: string;
  /** the accept confirmation's question (default `Accept {who}?`) */
  acceptMessage?: string;
  decision: Decision<'admin/update-learninig-provider-request' | 'admin/update-org-subadmin-request'>;
}

/** The Accept / Reject pair of an approval queue row (status 1 accept, 0 reject; spec 02 §4). */
export function AcceptRejectButtons({ idField, id, who, subject, acceptMessage, decision }: AcceptRejectProps) {
  const { run, busyKey } = decision;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button
        size="xs"
        color="green"
        loading={busyKey === `${id}-1`}
        aria-label={`Accept ${who}`}
        onClick={() =>
          run(`${id}-1`, idField === 'id' ? { id, status: 1 } : { odid: id, status: 1 }, {
            title: `Accept ${subject}`,
            message: acceptMessage ?? `Accept ${who}?`,
          })
        }
      >
        Accept
      </Button>
      <Button
        size="xs"
        color="red"
        variant="light"
        loading={busyKey === `${id}-0`}
        aria-label={`Reject ${who}`}
        onClick={() =>
          run(`${id}-0`, idField === 'id' ? { id, status: 0 } : { odid: id, status: 0 }, {
            title: `Reject ${subject}`,
            message: `Reject ${who}?`,
            danger: true,
          })
        }
      >
        Reject
      </Button>
    </Group>
  );
}
