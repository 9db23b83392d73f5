import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The live conference screens (spec 01 §2, spec 02 §2 'Meeting pages'). */
export const CONFERENCE_PAGES: Record<string, LazyPage> = {
  '/conference/:slug': lazyPage(() => import('./ConferencePage'), 'ConferencePage'),
  '/take-call-meeting/:id': lazyPage(() => import('./TakeCallMeetingPage'), 'TakeCallMeetingPage'),
  '/public/conference/:meetingId': lazyPage(() => import('./GuestConferencePage'), 'GuestConferencePage'),
  '/training/start/:id': lazyPage(() => import('./TrainingStartPage'), 'TrainingStartPage'),
  '/end-meeting/:slug': lazyPage(() => import('./EndMeetingPage'), 'EndMeetingPage'),
  '/white-board': lazyPage(() => import('./WhiteboardPage'), 'WhiteboardPage'),
};
