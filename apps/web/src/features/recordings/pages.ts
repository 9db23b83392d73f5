import { type LazyPage, lazyPage } from '../../app/lazy-page';

export { RecordButton, type RecordButtonProps } from './RecordButton';

/** Meeting recordings: the player page (the RecordButton is mounted by the conference toolbar). */
export const RECORDING_PAGES: Record<string, LazyPage> = {
  '/recording': lazyPage(() => import('./RecordingPage'), 'RecordingPage'),
  '/recording/:id': lazyPage(() => import('./RecordingPage'), 'RecordingPage'),
};
