import type { ComponentType } from 'react';

/** Screens of organizations, approvals, users and trainers, by route pattern. */
export const ORGANIZATION_PAGES: Record<string, ComponentType> = {};
