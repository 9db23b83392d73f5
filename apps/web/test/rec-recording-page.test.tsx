import { screen } from '@testing-library/react';
import { MSG } from '@trainlab/contract';
import { describe, expect, it } from 'vitest';
import { stubFetch } from './fetch-stub';
import { renderApp, signIn } from './render-app';

const answer = (mime: string) => ({
  success: {
    url: '/api/recording-file/9?t=abc.def',
    mime,
    bytes: 2048,
    topic: { id: 41, session_topic: 'Hooks' },
    training: { id: 7, name: 'React Basics', slug: 'react-basics' },
  },
});

describe('/recording/:id', () => {
  it('plays a video recording with the signed URL from /get-recording', async () => {
    signIn(['user']);
    const net = stubFetch({ 'get-recording': () => ({ body: answer('video/webm;codecs=vp8,opus') }) });
    renderApp(`/recording/${btoa('41')}`);
    expect(await screen.findByRole('heading', { name: 'Recording: Hooks' })).toBeInTheDocument();
    const video = screen.getByLabelText('Recording');
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', '/api/recording-file/9?t=abc.def');
    expect(screen.getByText('React Basics')).toBeInTheDocument();
    expect(net.callsTo('get-recording')[0]?.body).toEqual({ id: btoa('41') });
  });

  it('plays an audio-only recording with an audio element', async () => {
    signIn(['trainer']);
    stubFetch({ 'get-recording': () => ({ body: answer('audio/webm;codecs=opus') }) });
    renderApp(`/recording/${btoa('41')}`);
    const audio = await screen.findByLabelText('Recording');
    expect(audio.tagName).toBe('AUDIO');
  });

  it("shows 'Recording Not Available' on 404, and a sign-in link without a session", async () => {
    signIn(['user']);
    stubFetch({ 'get-recording': () => ({ status: 404, body: { message: MSG.recordingNotAvailable } }) });
    const first = renderApp(`/recording/${btoa('41')}`);
    expect(await screen.findByText(MSG.recordingNotAvailable)).toBeInTheDocument();
    expect(screen.queryByLabelText('Recording')).toBeNull();
    first.unmount();

    localStorage.clear();
    const net = stubFetch();
    renderApp(`/recording/${btoa('41')}`);
    expect(await screen.findByText(MSG.recordingNotAvailable)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(net.callsTo('get-recording')).toHaveLength(0);
  });

  it('shows other errors as an alert', async () => {
    signIn(['user']);
    stubFetch({ 'get-recording': () => ({ status: 403, body: { message: MSG.forbidden } }) });
    renderApp(`/recording/${btoa('41')}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.forbidden);
  });
});
