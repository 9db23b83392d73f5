import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { COURSE_MSG } from '@trainlab/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';
import { editTopicRoutes } from './topic-fixtures';

/**
 * The network boundary of uploads is XMLHttpRequest (tus-js-client's browser stack and the multipart
 * form use it): a fake that speaks the tus protocol like /api/course-uploads and records the topic call.
 */
interface TusState {
  uploads: Map<string, { size: number; offset: number }>;
  requests: { method: string; url: string; headers: Record<string, string> }[];
  /** the next PATCH fails like a dropped connection after half of its bytes arrived */
  dropNextPatch: boolean;
  /** the final PATCH is refused with this 422 body */
  refuse: unknown;
  /** PATCHes wait for this before answering (so a test sees the bar mid-way) */
  gate: Promise<void> | null;
  topicCalls: FormData[];
}
const tus: TusState = {
  uploads: new Map(),
  requests: [],
  dropNextPatch: false,
  refuse: null,
  gate: null,
  topicCalls: [],
};

class FakeXhr {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k.toLowerCase()] = v;
  }
  getResponseHeader(k: string) {
    return this.responseHeaders[k.toLowerCase()] ?? null;
  }
  getAllResponseHeaders() {
    return Object.entries(this.responseHeaders)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
  }
  abort() {}
  private reply(status: number, headers: Record<string, string> = {}, body = '') {
    this.status = status;
    this.responseHeaders = { 'tus-resumable': '1.0.0', ...headers };
    this.responseText = body;
    act(() => this.onload?.());
  }
  send(body: Blob | FormData | null) {
    tus.requests.push({ method: this.method, url: this.url, headers: { ...this.headers } });
    setTimeout(() => void this.answer(body), 0);
  }
  private async answer(body: Blob | FormData | null) {
    if (!this.url.startsWith('/api/course-uploads')) {
      tus.topicCalls.push(body as FormData);
      return this.reply(200, {}, JSON.stringify({ message: COURSE_MSG.topicUpdated }));
    }
    if (this.method === 'POST') {
      const id = `${tus.uploads.size + 1}`.padStart(32, 'a');
      tus.uploads.set(id, { size: Number(this.headers['upload-length']), offset: 0 });
      return this.reply(201, { location: `/api/course-uploads/${id}` });
    }
    const id = this.url.split('/').pop()!;
    const up = tus.uploads.get(id);
    if (!up) return this.reply(404, {}, JSON.stringify({ message: 'Not Found' }));
    if (this.method === 'HEAD') {
      return this.reply(200, { 'upload-offset': String(up.offset), 'upload-length': String(up.size) });
    }
    const bytes = (body as Blob).size;
    if (Number(this.headers['upload-offset']) !== up.offset) return this.reply(409);
    this.upload.onprogress?.({ lengthComputable: true, loaded: Math.floor(bytes / 2), total: bytes });
    if (tus.gate) await tus.gate;
    if (tus.dropNextPatch) {
      tus.dropNextPatch = false;
      up.offset += Math.floor(bytes / 2);
      return act(() => this.onerror?.(new Error('connection dropped')));
    }
    this.upload.onprogress?.({ lengthComputable: true, loaded: bytes, total: bytes });
    if (tus.refuse && up.offset + bytes === up.size) {
      tus.uploads.delete(id);
      return this.reply(422, {}, JSON.stringify(tus.refuse));
    }
    up.offset += bytes;
    return this.reply(204, { 'upload-offset': String(up.offset) });
  }
}

beforeEach(() => {
  Object.assign(tus, {
    uploads: new Map(),
    requests: [],
    dropNextPatch: false,
    refuse: null,
    gate: null,
    topicCalls: [],
  });
  localStorage.clear();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

function editStubs() {
  return stubFetch({
    ...editTopicRoutes(),
    'get-course-module-topic-list': () => ({ body: { list: [], total: 0, page: 1, per_page: 20 } }),
  });
}

const lecture = () => new File([new Uint8Array(300_000).fill(7)], 'lecture.mp4', { type: 'video/mp4' });

async function chooseAndSubmit(file: File) {
  const user = userEvent.setup();
  const form = (await screen.findByRole('button', { name: 'Update' })).closest('form')!;
  const input = form.querySelector('input[type="file"]') as HTMLInputElement;
  await user.upload(input, file);
  await user.click(within(form).getByRole('button', { name: 'Update' }));
  return form;
}

describe('topic form: resumable video upload', () => {
  it('uploads the video with tus behind a progress bar, then names the finished upload in /update-all-course', async () => {
    signIn(['provider']);
    editStubs();
    let open!: () => void;
    tus.gate = new Promise((r) => {
      open = r;
    });
    renderApp('/edit-course/pods');
    const form = await chooseAndSubmit(lecture());
    expect(await within(form).findByText('Uploading… 50%')).toBeInTheDocument();
    expect(within(form).getByRole('progressbar', { name: 'Upload progress' })).toBeInTheDocument();
    open();
    await waitFor(() => expect(tus.topicCalls).toHaveLength(1));
    const sent = tus.topicCalls[0]!;
    const id = [...tus.uploads.keys()][0]!;
    expect(sent.get('tus_upload_id')).toBe(id);
    expect(sent.get('course_url')).toBeNull();
    expect(sent.get('topic_id')).toBe('11');
    expect(sent.get('name')).toBe('Pods');
    const post = tus.requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/course-uploads');
    expect(post.headers.authorization).toMatch(/^Bearer /);
    expect(post.headers['upload-length']).toBe('300000');
    expect(await screen.findByText(COURSE_MSG.topicUpdated)).toBeInTheDocument();
  });

  it('a dropped connection is retried from the offset the server reports', async () => {
    signIn(['provider']);
    editStubs();
    tus.dropNextPatch = true;
    renderApp('/edit-course/pods');
    await chooseAndSubmit(lecture());
    await waitFor(() => expect(tus.topicCalls).toHaveLength(1), { timeout: 5000 });
    const methods = tus.requests.filter((r) => r.url.startsWith('/api/course-uploads')).map((r) => r.method);
    expect(methods).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    const resumed = tus.requests.filter((r) => r.method === 'PATCH')[1]!;
    expect(resumed.headers['upload-offset']).toBe('150000');
    expect(tus.uploads.size).toBe(1);
  });

  it('after a reload, choosing the same file again resumes the earlier upload instead of starting over', async () => {
    signIn(['provider']);
    editStubs();
    const file = lecture();
    // an earlier visit: the upload was created and half sent, then the page went away
    tus.refuse = null;
    const id = 'b'.repeat(32);
    tus.uploads.set(id, { size: file.size, offset: 120_000 });
    const fingerprint = ['tus-br', file.name, file.type, file.size, file.lastModified, '/api/course-uploads'].join('-');
    localStorage.setItem(
      `tus::${fingerprint}::1`,
      JSON.stringify({
        size: file.size,
        metadata: {},
        creationTime: new Date().toString(),
        uploadUrl: `/api/course-uploads/${id}`,
      }),
    );
    renderApp('/edit-course/pods');
    await chooseAndSubmit(file);
    await waitFor(() => expect(tus.topicCalls).toHaveLength(1));
    expect(tus.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/course-uploads'))).toEqual([]);
    expect(tus.requests.find((r) => r.method === 'PATCH')!.headers['upload-offset']).toBe('120000');
    expect(tus.topicCalls[0]!.get('tus_upload_id')).toBe(id);
    // a finished upload forgets its fingerprint
    expect(Object.keys(localStorage).filter((k) => k.startsWith('tus::'))).toEqual([]);
  });

  it('a refused upload shows the server’s reason under the video field and no topic call is made', async () => {
    signIn(['provider']);
    editStubs();
    tus.refuse = { course_url: [COURSE_MSG.videoNotVideo] };
    renderApp('/edit-course/pods');
    const form = await chooseAndSubmit(lecture());
    expect(await within(form).findByText(COURSE_MSG.videoNotVideo)).toBeInTheDocument();
    expect(tus.topicCalls).toEqual([]);
    expect(within(form).queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
