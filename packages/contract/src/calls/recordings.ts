import type { ApiCall } from '../api-base.js';
import { call } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import * as r from '../schemas/recordings.js';

/** Moderators: managers of the training's tenant and its assigned trainers. */
const MODERATORS: readonly Role[] = ['provider', 'organization', 'org_subadmin', 'trainer'];
/** Everyone who may see a training: enrolled learners, managers, assigned trainers. */
const VIEWERS: readonly Role[] = [...LEARNER_ROLES, ...MODERATORS];

/**
 * Meeting recordings. The file itself is served by GET /api/recording-file/{id} (HTTP Range; bearer
 * token or the signed ?t= token from /get-recording), which is not a POST call.
 */
export const RECORDING_CALLS = {
  recordingStart: call(
    'recording-start',
    MODERATORS,
    'A moderator starts uploading a recording of a training (optional topic). mime: audio/webm, video/webm, audio/ogg or audio/flac (optionally with codecs). Answers the recording id and the largest chunk size.',
    r.recordingStartRequest,
    r.recordingStartResponse,
  ),
  recordingChunk: call(
    'recording-chunk',
    MODERATORS,
    'Appends one chunk (multipart: id, index, file ≤ 5 MB). index must be the next expected one; a chunk already stored is acknowledged again without being appended. The total is limited by RECORDING_MAX_BYTES.',
    r.recordingChunkRequest,
    r.recordingChunkResponse,
    { multipart: true },
  ),
  recordingFinish: call(
    'recording-finish',
    MODERATORS,
    "Marks the recording ready and sets its topic's (else the training's latest topic's) recording_url to /api/recording-file/{id}.",
    r.recordingIdRequest,
    r.recordingFinishResponse,
  ),
  getRecording: call(
    'get-recording',
    VIEWERS,
    "The recording of a syllabus topic (id: number or base64) for anyone who may see the training: a short-lived signed URL, its mime, topic and training; 404 'Recording Not Available'.",
    r.getRecordingRequest,
    r.getRecordingResponse,
  ),
} satisfies Record<string, ApiCall>;
