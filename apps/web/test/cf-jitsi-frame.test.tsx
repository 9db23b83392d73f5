import { render, screen, waitFor } from '@testing-library/react';
import { MSG } from '@trainlab/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from '../src/app/providers';
import { JitsiFrame } from '../src/features/conference/JitsiFrame';

/** The Jitsi server's IFrame API as its external_api.js defines it: records how it was built. */
class FakeJitsiApi {
  static last: FakeJitsiApi | null = null;
  listeners = new Map<string, () => void>();
  disposed = false;
  constructor(
    readonly domain: string,
    readonly options: Record<string, unknown>,
  ) {
    FakeJitsiApi.last = this;
  }
  addListener(event: string, fn: () => void) {
    this.listeners.set(event, fn);
  }
  dispose() {
    this.disposed = true;
  }
}

const SRC = 'https://meet.example.org/external_api.js';
const script = () => document.querySelector<HTMLScriptElement>(`script[src="${SRC}"]`);

function renderFrame(onLeft = vi.fn()) {
  return render(
    <Providers queryClient={createQueryClient()} env="test">
      <JitsiFrame
        domain="meet.example.org"
        room="tl-abc123"
        jwt="signed.jwt"
        displayName="Priya Provider"
        height={580}
        onLeft={onLeft}
      />
    </Providers>,
  );
}

afterEach(() => {
  script()?.remove();
  delete window.JitsiMeetExternalAPI;
  FakeJitsiApi.last = null;
});

describe('JitsiFrame', () => {
  it("loads the server's IFrame API and joins the training's room with the participant's JWT", async () => {
    const onLeft = vi.fn();
    const view = renderFrame(onLeft);
    await waitFor(() => expect(script()).not.toBeNull());
    // the script arrives from the Jitsi server
    window.JitsiMeetExternalAPI = FakeJitsiApi as never;
    script()!.dispatchEvent(new Event('load'));
    await waitFor(() => expect(FakeJitsiApi.last).not.toBeNull());
    const api = FakeJitsiApi.last!;
    expect(api.domain).toBe('meet.example.org');
    expect(api.options).toMatchObject({
      roomName: 'tl-abc123',
      jwt: 'signed.jwt',
      height: 580,
      userInfo: { displayName: 'Priya Provider' },
    });
    expect(api.options.parentNode).toBe(screen.getByTestId('cf-jitsi'));
    // hanging up in Jitsi leaves the meeting page
    api.listeners.get('readyToClose')?.();
    expect(onLeft).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(api.disposed).toBe(true);
  });

  it("shows 'Wait meeting Not Loaded..' when the library cannot be loaded", async () => {
    renderFrame();
    await waitFor(() => expect(script()).not.toBeNull());
    script()!.dispatchEvent(new Event('error'));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.waitMeetingNotLoaded);
    expect(FakeJitsiApi.last).toBeNull();
  });

  it('shows the same message when the script loads but defines no IFrame API', async () => {
    renderFrame();
    await waitFor(() => expect(script()).not.toBeNull());
    script()!.dispatchEvent(new Event('load'));
    expect(await screen.findByText(MSG.waitMeetingNotLoaded)).toBeInTheDocument();
  });
});
