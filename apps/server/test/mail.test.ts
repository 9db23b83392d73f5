import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../src/adapters/mail/smtp-mailer';
import { createTestApp } from './helpers';

/** A real SMTP receiver on loopback: what nodemailer sends is what a mail server would get. */
let server: SMTPServer;
let port = 0;
const received: { from: string; to: string[]; raw: string }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('SMTP mailer', () => {
  it('delivers a message to a real SMTP server', async () => {
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'TrainLab <no-reply@app.test>');
    await mailer.send({ to: 'someone@example.test', subject: 'Hello there', text: 'Body text' });
    await mailer.close();
    const last = received.at(-1)!;
    expect(last.to).toEqual(['someone@example.test']);
    expect(last.from).toBe('no-reply@app.test');
    expect(last.raw).toContain('Subject: Hello there');
    expect(last.raw).toContain('Body text');
  });

  it('is used by the app when SMTP_URL is set: the reset link arrives over SMTP, not in the outbox', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      expect(t.deps.mail.kind).toBe('smtp');
      const user = await t.createUser();
      expect((await t.post('forgot-password', { email: user.email })).status).toBe(200);
      const mail = received.find((m) => m.to.includes(user.email));
      expect(mail?.raw).toMatch(/reset-password\//);
      expect(await t.outbox()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
