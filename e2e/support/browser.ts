/** Debian's Chromium, with the flags that keep it off the network (the machine has none). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ],
};

/** The same browser with a fake camera and microphone, for conference and recording journeys. */
export const CHROMIUM_WITH_FAKE_MEDIA = {
  ...CHROMIUM,
  args: [
    ...CHROMIUM.args,
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
};
