import type { ComponentType } from 'react';
import { RecordingPage } from './RecordingPage';

export { RecordButton, type RecordButtonProps } from './RecordButton';

/** Meeting recordings: the player page (the RecordButton is mounted by the conference toolbar). */
export const RECORDING_PAGES: Record<string, ComponentType> = {
  '/recording/:id': RecordingPage,
};
