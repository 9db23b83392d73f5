import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/** The multipart upload goes through XMLHttpRequest (for its progress): a fake one a test answers. */
export class FakeXhr {
  static last: FakeXhr | null = null;
  url = '';
  sent: FormData | null = null;
  status = 0;
  responseText = '';
  private headers: Record<string, string> = {};
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(data: FormData) {
    this.sent = data;
  }
  progress(percent: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded: percent, total: 100 }));
  }
  /** the answer's headers, by name in any case (null when absent, as a browser answers) */
  getResponseHeader(name: string): string | null {
    return this.headers[name.toLowerCase()] ?? null;
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    act(() => this.onload?.());
  }
}

/** Each test of the file sees FakeXhr as XMLHttpRequest, FakeXhr.last the newest request it made. */
export function fakeXhrInEachTest() {
  beforeEach(() => {
    FakeXhr.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => vi.unstubAllGlobals());
}
