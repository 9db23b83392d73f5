import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeXhr, fakeXhrInEachTest } from './fake-xhr';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';
import { editTopicRoutes } from './topic-fixtures';

fakeXhrInEachTest();

const track = (language: string, label: string) => ({
  language,
  label,
  bytes: 2048,
  created_at: '2026-11-01T10:00:00Z',
});

function authorStubs(tracks = [track('en', 'English')], transcript: string | null = null) {
  return stubFetch({
    ...editTopicRoutes({ caption_tracks: tracks, transcript }),
    'delete-topic-captions': () => ({ body: { message: 'Captions deleted.' } }),
    'save-topic-transcript': (body) => ({
      body: body.from_language
        ? { message: 'Transcript saved.', transcript: 'Hello and welcome.' }
        : { message: 'Transcript saved.', transcript: String(body.transcript).trim() },
    }),
  });
}

const vtt = () => new File(['WEBVTT\n\n00:00.000 --> 00:02.000\nHola\n'], 'es.vtt', { type: 'text/vtt' });

describe('/edit-course/{slug}: captions', () => {
  it('lists the tracks and deletes one after confirming', async () => {
    signIn(['provider']);
    const api = authorStubs([track('en', 'English'), track('hi', 'Hindi')]);
    renderApp('/edit-course/pods');
    const section = await screen.findByRole('region', { name: 'Captions' });
    const table = await within(section).findByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['LabelLanguageSizeActions', 'Englishen2 KBDelete', 'Hindihi2 KBDelete']);
    await userEvent.click(within(section).getByRole('button', { name: 'Delete Hindi captions' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(api.callsTo('delete-topic-captions').at(-1)?.body).toEqual({ slug: 'pods', language: 'hi' }),
    );
    expect(await screen.findByText('Captions deleted: Hindi.')).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    signIn(['provider']);
    authorStubs([]);
    renderApp('/edit-course/pods');
    expect(await screen.findByText(/This video has no captions yet/)).toBeInTheDocument();
  });

  it('uploads a file with its label and language, with progress announced, then refreshes the list', async () => {
    signIn(['provider']);
    const api = authorStubs();
    renderApp('/edit-course/pods');
    const form = await screen.findByRole('form', { name: 'Upload captions' });
    const user = userEvent.setup();
    await user.type(within(form).getByRole('textbox', { name: /^Label/ }), 'Español');
    await user.type(within(form).getByRole('textbox', { name: /^Language/ }), 'es');
    const input = form.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input!, vtt());
    const before = api.callsTo('get-topic-details').length;
    await user.click(within(form).getByRole('button', { name: 'Upload captions' }));
    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe('/api/upload-topic-captions');
    expect(xhr.sent?.get('slug')).toBe('pods');
    expect(xhr.sent?.get('language')).toBe('es');
    expect(xhr.sent?.get('label')).toBe('Español');
    expect((xhr.sent?.get('file') as File).name).toBe('es.vtt');
    xhr.progress(50);
    expect(within(form).getByText('Uploading… 50%')).toBeInTheDocument();
    expect(within(form).getByRole('status')).toHaveTextContent('Upload 50% done.');
    xhr.answer(200, { message: 'Captions saved.' });
    expect(await screen.findByText('Captions saved: Español.')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('get-topic-details').length).toBeGreaterThan(before));
    expect(within(form).queryByText(/Uploading/)).not.toBeInTheDocument();
  });

  it('shows the server’s refusals under their fields', async () => {
    signIn(['provider']);
    authorStubs();
    renderApp('/edit-course/pods');
    const form = await screen.findByRole('form', { name: 'Upload captions' });
    await userEvent.click(within(form).getByRole('button', { name: 'Upload captions' }));
    FakeXhr.last!.answer(422, {
      language: ['The language field is required.'],
      file: ['The file must be a WebVTT (.vtt) file.'],
    });
    const language = await within(form).findByRole('textbox', { name: /^Language/ });
    await waitFor(() => expect(language).toHaveAccessibleDescription(/The language field is required\./));
    expect(within(form).getByText('The file must be a WebVTT (.vtt) file.')).toBeInTheDocument();
  });
});

describe('/edit-course/{slug}: transcript', () => {
  it('takes the transcript from a caption track, and saves a typed one', async () => {
    signIn(['provider']);
    const api = authorStubs([track('en', 'English')]);
    renderApp('/edit-course/pods');
    const section = await screen.findByRole('region', { name: 'Transcript' });
    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Take from captions' }));
    await waitFor(() =>
      expect(api.callsTo('save-topic-transcript').at(-1)?.body).toEqual({ slug: 'pods', from_language: 'en' }),
    );
    const text = within(section).getByRole('textbox', { name: 'Transcript text' });
    await waitFor(() => expect(text).toHaveValue('Hello and welcome.'));
    await user.clear(text);
    await user.type(text, 'Typed words');
    await user.click(within(section).getByRole('button', { name: 'Save transcript' }));
    await waitFor(() =>
      expect(api.callsTo('save-topic-transcript').at(-1)?.body).toEqual({ slug: 'pods', transcript: 'Typed words' }),
    );
  });
});

const playTopic = (over: Record<string, unknown> = {}) => ({
  id: 11,
  slug: 'pods',
  name: 'Pods',
  description: 'What a pod is',
  url: '/api/course-media/tok/master.m3u8',
  poster: null,
  video_status: 'ready',
  video_error: null,
  duration: 64,
  seconds_watched: 0,
  last_position: 0,
  is_complete: 0,
  captions: [
    { language: 'en', label: 'English', url: '/api/course-media/tok/captions-en.vtt' },
    { language: 'hi', label: 'Hindi', url: '/api/course-media/tok/captions-hi.vtt' },
  ],
  transcript: 'Hello and welcome.\n\nPods hold containers.',
  ...over,
});

function playStub(topic: Record<string, unknown>) {
  stubFetch({
    'play-course-data': () => ({
      body: {
        course: { id: 1, name: 'Kubernetes Basics', slug: 'kube' },
        percentage: 0,
        data: [{ id: 1, name: 'Getting started', topics: [topic] }],
      },
    }),
  });
}

describe('/course/{slug}: tracks and transcript', () => {
  it('offers every caption track, the first by default', async () => {
    signIn(['provider_user']);
    playStub(playTopic());
    renderApp('/course/kube');
    const video = await screen.findByTestId('course-video');
    const tracks = [...video.querySelectorAll('track')].map((t) => [t.srclang, t.label, t.src, t.default]);
    expect(tracks).toEqual([
      ['en', 'English', expect.stringContaining('/captions-en.vtt'), true],
      ['hi', 'Hindi', expect.stringContaining('/captions-hi.vtt'), false],
    ]);
    expect(screen.getByText(/C turns captions on and off/)).toBeInTheDocument();
  });

  it('keeps the transcript folded under a button that opens it by keyboard', async () => {
    signIn(['provider_user']);
    playStub(playTopic());
    renderApp('/course/kube');
    const button = await screen.findByRole('button', { name: 'Show transcript' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Transcript: Pods' })).not.toBeInTheDocument();
    button.focus();
    await userEvent.keyboard('{Enter}');
    const region = screen.getByRole('region', { name: 'Transcript: Pods' });
    expect(region).toHaveTextContent('Pods hold containers.');
    expect(region).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('button', { name: 'Hide transcript' })).toHaveAttribute('aria-expanded', 'true');
    expect(button.getAttribute('aria-controls')).toBe(region.id);
  });

  it('shows no transcript button where none was given', async () => {
    signIn(['provider_user']);
    playStub(playTopic({ transcript: null, captions: [] }));
    renderApp('/course/kube');
    await screen.findByTestId('course-video');
    expect(screen.queryByRole('button', { name: 'Show transcript' })).not.toBeInTheDocument();
    expect(screen.getByText(/This video has no captions yet/)).toBeInTheDocument();
  });
});
