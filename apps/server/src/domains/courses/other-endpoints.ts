import { COURSE_UPLOAD_PATH, COURSE_UPLOAD_ROLES } from '@trainlab/contract';
import {
  type Answer,
  json,
  must,
  type OtherEndpoint,
  RANGE,
  rangeAnswers,
  redirect,
  roles,
  signed,
} from '../../platform/http/other-endpoints';

const TUS_HEADERS = { 'Tus-Resumable': must('1.0.0 (412 without it).') };
const TUS_ERRORS: Record<number, Answer> = {
  401: json('Unauthenticated.'),
  403: json('The account may not upload course videos.'),
  404: json('No such upload of the caller.'),
  412: { description: 'Tus-Resumable missing or not 1.0.0.', type: 'text/plain' },
};
const uploaderOnly = roles(COURSE_UPLOAD_ROLES, '; only the account that created the upload');
const UPLOAD_ID = 'The upload id: the last part of the Location answered on creation (32 hex digits).';

/**
 * A recorded course's signed media, and the tus protocol of its video uploads.
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const COURSE_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/api/course-media/{token}/{file}',
    methods: {
      get: {
        summary: 'One file of a recorded course topic’s HLS package (playlists, segments, poster) or its captions.',
        access: signed(
          'Signed token in the path, issued by /play-course-data to someone who may play the topic (the playlists’ relative URLs carry it)',
        ),
        params: {
          token: 'The short-lived signed playback token of the topic.',
          file: 'A file name of the package: master.m3u8, <height>p.m3u8, segments (.ts), poster.jpg, captions-<language>.vtt.',
        },
        headers: { Range: RANGE },
        responses: {
          ...rangeAnswers(
            'application/vnd.apple.mpegurl (.m3u8), video/mp2t (.ts), image/jpeg (.jpg), text/vtt (.vtt)',
          ),
          302: redirect(
            'With an S3 file store: segments and the poster redirect to a presigned URL (rendition playlists are answered 200 with presigned segment URLs).',
          ),
          401: json('Unauthenticated: the token is malformed, forged or expired.'),
          404: json('Not Found: no such file in the topic’s package, or the account is inactive.'),
        },
      },
    },
  },

  // tus resumable uploads of course videos
  {
    path: `/api/${COURSE_UPLOAD_PATH}`,
    methods: {
      post: {
        summary:
          'tus 1.0.0 creation: starts a resumable course video upload (creation-with-upload may carry the first bytes).',
        access: { who: roles(COURSE_UPLOAD_ROLES), security: [{ bearer: [] }] },
        headers: {
          ...TUS_HEADERS,
          'Upload-Length': must(
            'The total size in bytes (deferred length is refused); at most COURSE_VIDEO_MAX_BYTES.',
          ),
          'Upload-Metadata': 'Comma-separated `key base64(value)` pairs, e.g. filename and filetype.',
        },
        body: {
          type: 'application/offset+octet-stream',
          description: 'Optional: the first bytes of the video (creation-with-upload).',
        },
        responses: {
          201: {
            description: 'Created.',
            headers: {
              Location: `/api/${COURSE_UPLOAD_PATH}/{id}`,
              'Upload-Expires': 'when the unfinished upload is removed',
              'Tus-Resumable': '1.0.0',
            },
          },
          400: { description: 'Upload-Length or Upload-Metadata missing or invalid.', type: 'text/plain' },
          ...TUS_ERRORS,
          422: json('{"course_url":[…]}: empty, larger than the limit, or (once complete) not a readable video.', {
            type: 'object',
            properties: { course_url: { type: 'array', items: { type: 'string' } } },
          }),
        },
      },
    },
  },
  {
    path: `/api/${COURSE_UPLOAD_PATH}/{id}`,
    methods: {
      head: {
        summary: 'tus: how many bytes of the upload the server holds, to resume from there.',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: TUS_HEADERS,
        responses: {
          200: {
            description: 'The upload’s state.',
            headers: {
              'Upload-Offset': 'the bytes received',
              'Upload-Length': 'the declared size',
              'Upload-Metadata': 'as sent on creation',
              'Cache-Control': 'no-store',
            },
          },
          ...TUS_ERRORS,
          410: { description: 'Gone: the upload expired.', type: 'text/plain' },
        },
      },
      patch: {
        summary:
          'tus: appends bytes at Upload-Offset; the last piece completes the upload, checked to be a video (ffprobe).',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: {
          ...TUS_HEADERS,
          'Upload-Offset': must('The offset the bytes start at: the Upload-Offset the server holds.'),
          'Content-Type': must('application/offset+octet-stream'),
        },
        body: { type: 'application/offset+octet-stream', description: 'The next bytes of the video.' },
        responses: {
          204: {
            description: 'No Content: the bytes are stored.',
            headers: { 'Upload-Offset': 'the new offset', 'Upload-Expires': 'when an unfinished upload is removed' },
          },
          ...TUS_ERRORS,
          409: { description: 'Conflict: Upload-Offset is not the stored offset.', type: 'text/plain' },
          410: { description: 'Gone: the upload expired.', type: 'text/plain' },
          415: { description: 'Content-Type is not application/offset+octet-stream.', type: 'text/plain' },
          422: json('{"course_url":[…]}: the completed file is not a readable video (it is removed), or too large.', {
            type: 'object',
            properties: { course_url: { type: 'array', items: { type: 'string' } } },
          }),
        },
      },
      delete: {
        summary: 'tus termination: cancels the upload and removes its bytes.',
        access: { who: uploaderOnly, security: [{ bearer: [] }] },
        params: { id: UPLOAD_ID },
        headers: TUS_HEADERS,
        responses: { 204: { description: 'No Content: removed.' }, ...TUS_ERRORS },
      },
    },
  },
];
