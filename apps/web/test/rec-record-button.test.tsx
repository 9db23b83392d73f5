import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG } from '@trainlab/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/client';
import { createQueryClient, Providers } from '../src/app/providers';
import type { MixSource } from '../src/features/recordings/meeting-mix';
import { RecordButton } from '../src/features/recordings/RecordButton';
import { stubFetch } from './fetch-stub';
import { signIn } from './render-app';

/** MediaRecorder as the browser gives it: the test decides which types exist and when data arrives. */
class FakeRecorder extends EventTarget {
  static supported = new Set<string>();
  static last: FakeRecorder | null = null;
  static isTypeSupported(mime: string) {
    return FakeRecorder.supported.has(mime);
  }
  state: 'inactive' | 'recording' = 'inactive';
  timeslice = 0;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  constructor(
    readonly stream: FakeStream,
    readonly options: { mimeType: string },
  ) {
    super();
    FakeRecorder.last = this;
  }
  start(timeslice: number) {
    this.state = 'recording';
    this.timeslice = timeslice;
  }
  /** a timeslice elapsed: the recorder hands over a chunk */
  emit(text: string) {
    this.ondataavailable?.({ data: new Blob([text], { type: this.options.mimeType }) });
  }
  stop() {
    this.emit('last');
    this.state = 'inactive';
    this.dispatchEvent(new Event('stop'));
  }
}

class FakeStream {
  constructor(readonly tracks: { kind: string; id: string }[] = []) {}
  getTracks() {
    return this.tracks;
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
}

const camAndMic = () =>
  new FakeStream([
    { kind: 'audio', id: 'mic' },
    { kind: 'video', id: 'cam' },
  ]) as unknown as MediaStream;

interface Sent {
  id: string;
  index: string;
  text: string;
}

/** The multipart uploader at the network edge: stores what arrives and answers like the server. */
function fakeUpload(fail: (n: number) => ApiError | null = () => null) {
  const sent: Sent[] = [];
  let attempts = 0;
  const upload = vi.fn(async (_path: string, fields: Record<string, string | Blob>) => {
    const n = attempts++;
    const err = fail(n);
    if (err) throw err;
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(fields.file as Blob);
    });
    sent.push({ id: fields.id as string, index: fields.index as string, text });
    return { id: Number(fields.id), next_index: Number(fields.index) + 1, bytes: 0 };
  });
  return { sent, upload };
}

function renderButton(
  props: Partial<Parameters<typeof RecordButton>[0]> & { upload: ReturnType<typeof fakeUpload>['upload'] },
) {
  return render(
    <Providers queryClient={createQueryClient()} env="test">
      <RecordButton slug="react-basics" stream={camAndMic()} timesliceMs={3000} {...props} />
    </Providers>,
  );
}

beforeEach(() => {
  signIn(['provider']);
  FakeRecorder.supported = new Set([
    'audio/webm;codecs=opus',
    'audio/webm',
    'video/webm;codecs=vp8,opus',
    'video/webm',
  ]);
  FakeRecorder.last = null;
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('MediaStream', FakeStream);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RecordButton', () => {
  it('records audio only as WebM/Opus, uploads chunks in order with progress, finishes with a toast', async () => {
    const net = stubFetch({
      'recording-start': () => ({ body: { message: MSG.recordingStarted, id: 9, chunk_size: 5 * 1024 * 1024 } }),
      'recording-finish': () => ({
        body: { message: MSG.recordingSaved, id: 9, url: '/api/recording-file/9', bytes: 13, topic_id: 41 },
      }),
    });
    const { sent, upload } = fakeUpload();
    renderButton({ upload, topicId: 41 });
    const user = userEvent.setup();
    expect(screen.getByRole('radio', { name: 'Audio only' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Start recording' }));

    const stop = await screen.findByRole('button', { name: 'Stop recording' });
    expect(net.callsTo('recording-start')[0]?.body).toEqual({
      slug: 'react-basics',
      topic_id: 41,
      mime: 'audio/webm;codecs=opus',
    });
    const rec = FakeRecorder.last!;
    // the spec's audio recording: the audio tracks only (video muted), in 3 s slices
    expect(rec.stream.getTracks().map((t) => t.id)).toEqual(['mic']);
    expect(rec.options.mimeType).toBe('audio/webm;codecs=opus');
    expect(rec.timeslice).toBe(3000);
    expect(screen.getByText(/WebM \(Opus\) audio/)).toBeInTheDocument();

    act(() => rec.emit('hello'));
    act(() => rec.emit('world'));
    await waitFor(() => expect(sent.map((s) => s.index)).toEqual(['0', '1']));
    expect(await screen.findByText(/10 B of 10 B uploaded/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Recording upload progress' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );

    await user.click(stop);
    expect(await screen.findByText(MSG.recordingSaved)).toBeInTheDocument();
    expect(sent).toEqual([
      { id: '9', index: '0', text: 'hello' },
      { id: '9', index: '1', text: 'world' },
      { id: '9', index: '2', text: 'last' },
    ]);
    expect(net.callsTo('recording-finish')).toHaveLength(1);
    expect(net.callsTo('recording-finish')[0]?.body).toEqual({ id: 9 });
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeInTheDocument();
  });

  it('uses FLAC where MediaRecorder supports it, and video/webm with every track for Full video', async () => {
    FakeRecorder.supported.add('audio/flac');
    const net = stubFetch({
      'recording-start': () => ({ body: { message: MSG.recordingStarted, id: 3, chunk_size: 4 } }),
      'recording-finish': () => ({ body: { message: MSG.recordingSaved, id: 3, url: 'u', bytes: 1, topic_id: null } }),
    });
    const { sent, upload } = fakeUpload();
    // the meeting is told when capture starts and stops (it tells the room)
    const told: boolean[] = [];
    renderButton({ upload, onRecordingChange: (on) => told.push(on) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    await screen.findByRole('button', { name: 'Stop recording' });
    expect(told).toEqual([true]);
    expect(net.callsTo('recording-start')[0]?.body).toEqual({ slug: 'react-basics', mime: 'audio/flac' });
    expect(screen.getByText(/FLAC audio/)).toBeInTheDocument();
    // a chunk larger than the server's chunk size (4 bytes here) is split
    act(() => FakeRecorder.last!.emit('abcdefghij'));
    await waitFor(() => expect(sent.map((s) => s.text)).toEqual(['abcd', 'efgh', 'ij']));
    expect(sent.map((s) => s.index)).toEqual(['0', '1', '2']);
    await user.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    expect(told).toEqual([true, false]);

    await user.click(screen.getByRole('radio', { name: 'Full video' }));
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    await screen.findByRole('button', { name: 'Stop recording' });
    expect(net.callsTo('recording-start')[1]?.body).toEqual({
      slug: 'react-basics',
      mime: 'video/webm;codecs=vp8,opus',
    });
    expect(FakeRecorder.last!.stream.getTracks().map((t) => t.id)).toEqual(['mic', 'cam']);
  });

  it('retries a chunk after a network error and shows a server refusal of the start', async () => {
    const net = stubFetch({
      'recording-start': () => ({ status: 403, body: { message: MSG.forbidden } }),
    });
    const { sent, upload } = fakeUpload((n) => (n === 0 ? new ApiError(0, null) : null));
    renderButton({ upload });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    expect(await screen.findByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeEnabled();
    expect(FakeRecorder.last).toBeNull();

    net.fetchMock.mockClear();
    stubFetch({
      'recording-start': () => ({ body: { message: MSG.recordingStarted, id: 5, chunk_size: 100 } }),
      'recording-finish': () => ({ body: { message: MSG.recordingSaved, id: 5, url: 'u', bytes: 1, topic_id: 1 } }),
    });
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    await screen.findByRole('button', { name: 'Stop recording' });
    act(() => FakeRecorder.last!.emit('once'));
    // first attempt fails (network), the retry stores it as index 0
    await waitFor(() => expect(sent).toEqual([{ id: '5', index: '0', text: 'once' }]), { timeout: 3000 });
    expect(upload).toHaveBeenCalledTimes(2);
  });

  it('is disabled without a media stream or without MediaRecorder', () => {
    const { upload } = fakeUpload();
    const { unmount } = renderButton({ upload, stream: null });
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeDisabled();
    unmount();
    vi.stubGlobal('MediaRecorder', undefined);
    renderButton({ upload });
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeDisabled();
  });

  it('records the whole meeting: the mix of every participant, kept up to date, stopped with the recording', async () => {
    stubFetch({
      'recording-start': () => ({ body: { message: MSG.recordingStarted, id: 11, chunk_size: 100 } }),
      'recording-finish': () => ({ body: { message: MSG.recordingSaved, id: 11, url: 'u', bytes: 1, topic_id: 2 } }),
    });
    const mixed = new FakeStream([
      { kind: 'video', id: 'grid' },
      { kind: 'audio', id: 'all-voices' },
    ]) as unknown as MediaStream;
    const updates: string[][] = [];
    const stop = vi.fn();
    const mix = vi.fn((_mode: string, _sources: MixSource[]) => ({
      stream: mixed,
      update: (next: MixSource[]) => updates.push(next.map((s) => s.name)),
      stop,
    }));
    const host = { id: 'a', name: 'Host', stream: camAndMic() };
    const anna = { id: 'b', name: 'Anna', stream: camAndMic() };
    const { upload } = fakeUpload();
    const view = renderButton({ upload, stream: null, sources: [host, anna], mix });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Full video' }));
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    await screen.findByRole('button', { name: 'Stop recording' });
    expect(mix).toHaveBeenCalledTimes(1);
    expect(mix.mock.calls[0]?.[0]).toBe('video');
    expect(mix.mock.calls[0]?.[1].map((s) => s.name)).toEqual(['Host', 'Anna']);
    expect(FakeRecorder.last!.stream.getTracks().map((t) => t.id)).toEqual(['grid', 'all-voices']);

    // Ben joins while recording: the mix follows
    const ben = { id: 'c', name: 'Ben', stream: camAndMic() };
    view.rerender(
      <Providers queryClient={createQueryClient()} env="test">
        <RecordButton slug="react-basics" stream={null} sources={[host, anna, ben]} mix={mix} upload={upload} />
      </Providers>,
    );
    await waitFor(() => expect(updates.at(-1)).toEqual(['Host', 'Anna', 'Ben']));

    await user.click(screen.getByRole('button', { name: 'Stop recording' }));
    expect(await screen.findByText(MSG.recordingSaved)).toBeInTheDocument();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('can record remote participants even when the moderator has no camera or microphone', () => {
    const { upload } = fakeUpload();
    renderButton({ upload, stream: null, sources: [{ id: 'b', name: 'Anna', stream: camAndMic() }] });
    expect(screen.getByRole('button', { name: 'Start recording' })).toBeEnabled();
  });
});
