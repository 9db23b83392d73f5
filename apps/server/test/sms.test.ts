import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSms, HttpSms, OutboxSms } from '../src/adapters/sms';
import { loadConfig } from '../src/platform/config';
import { createTestApp, type TestApp } from './helpers';

interface Received {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A fake SMS gateway on a free local port: records requests, answers `status`. */
async function fakeGateway(status = 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(data || 'null') });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/send`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('SMS adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the embedded default writes the outbox with channel sms', async () => {
    const sms = t.deps.sms;
    expect(sms).toBeInstanceOf(OutboxSms);
    await sms.send({ to: '+919876543210', text: 'hello there' });
    const res = await t.post('dev/mailbox');
    expect(res.body.list[0]).toMatchObject({ channel: 'sms', to: '+919876543210', text: 'hello there' });
  });

  it('SMS_GATEWAY_URL switches to the HTTP gateway; the token is optional', () => {
    const withUrl = loadConfig({ SMS_GATEWAY_URL: 'https://sms.example.test/send', SMS_GATEWAY_TOKEN: 'k' });
    expect(createSms(withUrl, t.deps.db)).toBeInstanceOf(HttpSms);
    expect(createSms(loadConfig({}), t.deps.db)).toBeInstanceOf(OutboxSms);
    expect(() => loadConfig({ SMS_GATEWAY_URL: 'not a url' })).toThrow(/SMS_GATEWAY_URL/);
  });

  it('the HTTP gateway POSTs {to, text} as JSON with the bearer token', async () => {
    const gw = await fakeGateway();
    try {
      await new HttpSms(gw.url, 'secret-token').send({ to: '+15550001', text: 'code 123456' });
      expect(gw.received).toHaveLength(1);
      const [r] = gw.received;
      expect(r).toMatchObject({ method: 'POST', url: '/send', body: { to: '+15550001', text: 'code 123456' } });
      expect(r!.headers['content-type']).toContain('application/json');
      expect(r!.headers.authorization).toBe('Bearer secret-token');

      await new HttpSms(gw.url).send({ to: '+15550002', text: 'no token' });
      expect(gw.received[1]!.headers.authorization).toBeUndefined();
    } finally {
      await gw.close();
    }
  });

  it('a non-2xx answer is an error', async () => {
    const gw = await fakeGateway(502);
    try {
      await expect(new HttpSms(gw.url).send({ to: '+1', text: 'x' })).rejects.toThrow('SMS gateway answered 502');
    } finally {
      await gw.close();
    }
  });

  it('codes of /mobile-otp-register go through the configured gateway', async () => {
    const gw = await fakeGateway();
    const app = await createTestApp({ SMS_GATEWAY_URL: gw.url, SMS_GATEWAY_TOKEN: 'tkn' });
    try {
      const res = await app.post('mobile-otp-register', { mobile_no: '+91 98765 43210' });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toMatch(/\d{6}/);
      expect(gw.received).toHaveLength(1);
      expect(gw.received[0]!.body).toMatchObject({ to: '+919876543210', text: expect.stringMatching(/\b\d{6}\b/) });
      expect(gw.received[0]!.headers.authorization).toBe('Bearer tkn');
      expect((await app.outbox()).filter((m) => m.to === '+919876543210')).toHaveLength(0);
    } finally {
      await app.close();
      await gw.close();
    }
  });

  it('a failing gateway answers 503 without the code', async () => {
    const gw = await fakeGateway(500);
    const app = await createTestApp({ SMS_GATEWAY_URL: gw.url });
    try {
      const res = await app.post('mobile-otp-register', { mobile_no: '9876500000' });
      expect(res.status).toBe(503);
      expect(JSON.stringify(res.body)).not.toMatch(/\d{6}/);
    } finally {
      await app.close();
      await gw.close();
    }
  });
});
