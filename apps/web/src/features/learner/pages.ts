import type { ComponentType } from 'react';

/** Screens of learners, public student registration and certificates, by route pattern. */
export const LEARNER_PAGES: Record<string, ComponentType> = {};
