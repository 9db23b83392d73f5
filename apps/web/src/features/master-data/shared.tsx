import { ActionIcon, Tooltip } from '@mantine/core';
import type {
  category,
  certification,
  certificationMasterItem,
  service,
  trainingCourse,
  trainingCourseWithModules,
  trainingModule,
  vmPrice,
} from '@trainlab/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';

export type Category = z.infer<typeof category>;
export type Certification = z.infer<typeof certification>;
export type MasterItem = z.infer<typeof certificationMasterItem>;
export type Service = z.infer<typeof service>;
export type TrainingCourse = z.infer<typeof trainingCourse>;
export type TrainingCourseWithModules = z.infer<typeof trainingCourseWithModules>;
export type TrainingModule = z.infer<typeof trainingModule>;
export type VmPrice = z.infer<typeof vmPrice>;

/** Browser check of a required field, worded like the server's. */
export const required = (name: string) => (v: unknown) =>
  String(v ?? '').trim() ? null : `The ${name} field is required.`;

/** Form text to a request value: blank reads as null. */
export const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** A text input value of a number (or '' when missing). */
export const numText = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));

export { BackLink } from '../../ui/BackLink';

/** A small icon button with a tooltip and an accessible name. */
export function IconAction({
  label,
  color,
  onClick,
  children,
  loading,
  to,
}: {
  label: string;
  /** a link instead of a button */
  to?: string;
  color?: string;
  onClick?: () => void;
  children: ReactNode;
  loading?: boolean;
}) {
  return (
    <Tooltip label={label.split(' ')[0]}>
      {to ? (
        <ActionIcon variant="light" color={color} aria-label={label} component={Link} to={to}>
          {children}
        </ActionIcon>
      ) : (
        <ActionIcon variant="light" color={color} aria-label={label} onClick={onClick} loading={loading}>
          {children}
        </ActionIcon>
      )}
    </Tooltip>
  );
}

export const money = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
