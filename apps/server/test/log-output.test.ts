import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyLogsWanted } from '../src/platform/log-output';
import { createTestApp } from './helpers';

/** Every line the app logs to a stream, as text, after one entry with secrets at each level. */
async function logged(prettyLogs: boolean): Promise<string> {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk) => {
    text += chunk.toString();
  });
  const t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: sink, prettyLogs });
  try {
    t.app.log.info(
      { password: 'hunter2-top', body: { token: 'tok-abc-123', pan_no: 'ABCDE1234F' }, user: 'kept-visible' },
      'profile saved',
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/live',
      headers: { authorization: 'Bearer sekrit-bearer' },
    });
    expect(res.statusCode).toBe(200);
  } finally {
    await t.close();
  }
  return text;
}

describe('the server log', () => {
  it('is readable (pino-pretty) only at a terminal outside production', () => {
    expect(prettyLogsWanted('development', true)).toBe(true);
    expect(prettyLogsWanted('test', true)).toBe(true);
    expect(prettyLogsWanted('production', true)).toBe(false);
    expect(prettyLogsWanted('development', false)).toBe(false);
    expect(prettyLogsWanted('development', undefined)).toBe(false);
  });

  it('redacts the same fields in the readable log as in JSON', async () => {
    const json = await logged(false);
    const pretty = await logged(true);
    for (const text of [json, pretty]) {
      expect(text).toContain('profile saved');
      expect(text).toContain('kept-visible');
      for (const secret of ['hunter2-top', 'tok-abc-123', 'ABCDE1234F', 'sekrit-bearer'])
        expect(text).not.toContain(secret);
      expect(text.match(/\[redacted\]/g)?.length).toBe(3);
    }
    // JSON lines, one object each
    const first = json.split('\n').find((l) => l.includes('profile saved'))!;
    expect(JSON.parse(first)).toMatchObject({ level: 30, msg: 'profile saved', password: '[redacted]' });
    // the readable form: a level word and the message, one line per entry, no JSON braces around it
    const line = pretty.split('\n').find((l) => l.includes('profile saved'))!;
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: profile saved /);
    expect(line).toContain('"password":"[redacted]"');
    expect(pretty).not.toMatch(/^\{"level"/m);
  });
});
