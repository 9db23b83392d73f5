import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface RowLinkProps {
  to: string;
  /** the accessible name, naming the row (e.g. 'Users of React Basics') */
  label: string;
  icon?: ReactNode;
  /** gray: a second, lesser action of the row */
  secondary?: boolean;
  /** router state handed to the page opened */
  state?: unknown;
  children: ReactNode;
}

/** A table row's action that opens another page: a small light button that is a link. */
export function RowLink({ to, label, icon, secondary, state, children }: RowLinkProps) {
  return (
    <Button
      size="xs"
      variant="light"
      color={secondary ? 'gray' : undefined}
      component={Link}
      to={to}
      state={state}
      leftSection={icon}
      aria-label={label}
    >
      {children}
    </Button>
  );
}
