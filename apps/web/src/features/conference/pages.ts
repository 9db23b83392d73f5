import type { ComponentType } from 'react';
import { ConferencePage } from './ConferencePage';
import { EndMeetingPage } from './EndMeetingPage';
import { GuestConferencePage } from './GuestConferencePage';
import { TrainingStartPage } from './TrainingStartPage';
import { WhiteboardPage } from './WhiteboardPage';

/** The live conference screens (spec 01 §2, spec 02 §2 'Meeting pages'). */
export const CONFERENCE_PAGES: Record<string, ComponentType> = {
  '/conference/:slug': ConferencePage,
  '/public/conference/:meetingId': GuestConferencePage,
  '/training/start/:id': TrainingStartPage,
  '/end-meeting/:slug': EndMeetingPage,
  '/white-board': WhiteboardPage,
};
