import { builtinEnvironments, type Environment } from 'vitest/environments';

/**
 * Vitest's jsdom environment with Node's own AbortController and AbortSignal kept. On Node 24 the
 * built-in fetch and Request (undici) refuse a signal that is not Node's ("Expected signal to be an
 * instance of AbortSignal"), and React Router's navigations make a Request with the signal of an
 * AbortController: with jsdom's classes every navigation in a test failed. Nothing of jsdom's DOM
 * here takes a signal, so Node's classes serve both.
 */
const jsdom = builtinEnvironments.jsdom;

export default {
  name: 'jsdom-node-abort',
  transformMode: 'web',
  async setup(global, options) {
    const { AbortController, AbortSignal } = global;
    const env = await jsdom.setup(global, options);
    global.AbortController = AbortController;
    global.AbortSignal = AbortSignal;
    return env;
  },
} satisfies Environment;
