import type { ComponentType } from 'react';

/** Screens of the admin's master data, by route pattern. */
export const MASTER_DATA_PAGES: Record<string, ComponentType> = {};
