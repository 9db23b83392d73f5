/**
 * Where the server's log goes. A person at a terminal reads it through pino-pretty (one coloured
 * line per entry, the time of day, no pid or host); anything else (production, a pipe, a file, a
 * log collector) gets pino's JSON lines. Redaction is pino's own and happens before either: the
 * prettifier only reformats lines that were already redacted (`redact` in app.ts).
 */

/** A readable log only for a person: stdout is a terminal and this is not production. */
export function prettyLogsWanted(nodeEnv: string, stdoutIsTTY: boolean | undefined): boolean {
  return stdoutIsTTY === true && nodeEnv !== 'production';
}

/**
 * The stream the logger writes to: `stream` (or stdout) as given for JSON, or a pino-pretty stream
 * in front of it. pino-pretty is loaded only then, so a production server never loads it.
 */
export async function logDestination(opts: {
  pretty: boolean;
  stream?: NodeJS.WritableStream;
}): Promise<NodeJS.WritableStream | undefined> {
  if (!opts.pretty) return opts.stream;
  const { default: pinoPretty } = await import('pino-pretty');
  return pinoPretty({
    destination: opts.stream ?? 1,
    // colours for a terminal; a stream handed in (a test) gets plain text
    colorize: opts.stream ? false : pinoPretty.isColorSupported,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // a request's line keeps its fields on the same line: one entry, one line
    singleLine: true,
    sync: true,
  });
}
