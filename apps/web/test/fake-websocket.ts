import { act } from '@testing-library/react';

/** A WebSocket at the network edge: records what the page sends and lets a test answer as the server. */
export class FakeWebSocket {
  static readonly OPEN = 1;
  static last: FakeWebSocket | null = null;
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    }, 0);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  /** the server says something */
  receive(msg: Record<string, unknown>) {
    act(() => this.onmessage?.({ data: JSON.stringify(msg) }));
  }
  /** the server closes the socket */
  serverClose(code: number) {
    this.readyState = 3;
    act(() => this.onclose?.({ code }));
  }
}
