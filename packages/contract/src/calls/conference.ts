import type { ApiCall } from '../api-base.js';
import { call } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import * as c from '../schemas/conference.js';

const STAFF: readonly Role[] = ['provider', 'organization', 'org_subadmin', 'trainer'];
const PARTICIPANTS: readonly Role[] = [...LEARNER_ROLES, ...STAFF];

/** Live conference. The WebSocket /ws/conference is not a POST call (docs/conference-protocol.md). */
export const CONFERENCE_CALLS = {
  getMeetingLink: call(
    'get-meeting-link',
    PARTICIPANTS,
    'What the conference page needs to join a training (slug or base64 id): provider, room, ws_url/ICE servers or Jitsi domain/JWT, isModerator, status. A moderator with start=1 starts the training (status 1).',
    c.meetingLinkRequest,
    c.meetingLinkResponse,
  ),
  endMeeting: call(
    'end-meeting',
    PARTICIPANTS,
    'Clears the caller’s session markers of a training: closes its open attendance rows with server-measured minutes.',
    c.endMeetingRequest,
    c.endMeetingResponse,
  ),
  getTakeCallMeetingLink: call(
    'get-take-call-meeting-link',
    ['provider', 'organization', 'org_subadmin', 'trainer'],
    'Start or join a take call’s meeting room: the managers of its training’s tenant (moderators) and the trainers it was sent to; 404 for anyone else.',
    c.takeCallMeetingRequest,
    c.meetingLinkResponse,
  ),
  getMeetingStatus: call(
    'get-meeting-status',
    'public',
    'Guest join: status of a public training by meeting id (0 not started, 1 started); 404 unknown, 403 not public.',
    c.meetingIdRequest,
    c.meetingStatusResponse,
  ),
  getMeetingUrl: call(
    'get-meeting-url',
    'public',
    'Guest join of a started public training: the meeting url and a short-lived guest ticket for the WebSocket.',
    c.meetingUrlRequest,
    c.meetingUrlResponse,
  ),
  getWhiteboard: call(
    'get-whiteboard',
    PARTICIPANTS,
    'The latest whiteboard scene saved with a training (null when none).',
    c.whiteboardSlugRequest,
    c.whiteboardResponse,
  ),
  saveWhiteboard: call(
    'save-whiteboard',
    STAFF,
    'Moderators (managers of the training, assigned trainers) save the whiteboard scene.',
    c.saveWhiteboardRequest,
    c.saveWhiteboardResponse,
  ),
} satisfies Record<string, ApiCall>;
