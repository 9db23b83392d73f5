import type { ComponentType } from 'react';

/** Screens of providers' and organizations' live trainings, by route pattern. */
export const TRAINING_PAGES: Record<string, ComponentType> = {};
