import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * The security headers of every answer (pages, assets, API answers, errors), built here and only
 * here from the configuration. Why each source is allowed: docs/decisions/0016-production-hardening.md.
 */
export type HeaderConfig = Pick<
  Config,
  'PUBLIC_URL' | 'MEETING_PROVIDER' | 'JITSI_DOMAIN' | 'PAYMENT_GATEWAY' | 'CSP_CONNECT_SRC' | 'CSP_REPORT_URI'
> &
  Partial<Pick<Config, 'FILE_STORE' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE'>>;

/** Where the player fetches presigned segments and posters from (FILE_STORE=s3), as CSP sources. */
function s3Sources(config: HeaderConfig): string[] {
  if (config.S3_ENDPOINT) {
    const endpoint = new URL(config.S3_ENDPOINT);
    // virtual-hosted style puts the bucket in the host name
    const virtual =
      config.FILE_STORE === 's3' && !config.S3_FORCE_PATH_STYLE && config.S3_BUCKET
        ? [`${endpoint.protocol}//${config.S3_BUCKET}.${endpoint.host}`]
        : [];
    return [endpoint.origin, ...virtual];
  }
  if (config.FILE_STORE !== 's3' || !config.S3_BUCKET) return [];
  return [`https://${config.S3_BUCKET}.s3.${config.S3_REGION ?? 'us-east-1'}.amazonaws.com`];
}

/** Razorpay's Checkout script, its frames and the calls they make (only with PAYMENT_GATEWAY=razorpay). */
const RAZORPAY = {
  script: ['https://checkout.razorpay.com'],
  frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
  connect: ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
};

/** The fallback font folder Excalidraw adds after ours (fonts only, that package's path only). */
export const EXCALIDRAW_FONT_FALLBACK = 'https://esm.sh/@excalidraw/';

/**
 * 'sha256-…' of each inline <script> of the built index.html that runs (Vite writes none today; kept
 * exact if it does). Data blocks (a JSON type, such as the likely-next file list) never run: no hash.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(m[1] ?? '')) continue;
    const body = m[2] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** The host of the Jitsi deployment as a CSP source (JITSI_DOMAIN is a bare host, may carry a port). */
function jitsiSources(config: HeaderConfig): { https: string; wss: string } | null {
  if (config.MEETING_PROVIDER !== 'jitsi' || !config.JITSI_DOMAIN) return null;
  const host = config.JITSI_DOMAIN.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return { https: `https://${host}`, wss: `wss://${host}` };
}

export function contentSecurityPolicy(config: HeaderConfig, scriptHashes: string[] = []): string {
  const self = origin(config.PUBLIC_URL);
  const ws = self.replace(/^http/, 'ws');
  const jitsi = jitsiSources(config);
  const razorpay = config.PAYMENT_GATEWAY === 'razorpay';
  const s3 = s3Sources(config);
  const extraConnect = config.CSP_CONNECT_SRC;
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scriptHashes, ...(jitsi ? [jitsi.https] : []), ...(razorpay ? RAZORPAY.script : [])],
    'script-src-attr': ["'none'"],
    // Mantine writes its CSS variables in a <style> element and positions popovers with style attributes
    'style-src': ["'self'", "'unsafe-inline'"],
    // QR codes and Excalidraw images are data: and blob: URLs
    'img-src': ["'self'", 'data:', 'blob:', ...s3],
    // Excalidraw names its CDN as the last source of every whiteboard font face and Chromium checks each
    // source when the face is built; the fonts load from /excalidraw-assets, so this path is never fetched
    'font-src': ["'self'", 'data:', EXCALIDRAW_FONT_FALLBACK],
    // hls.js feeds the <video> through MediaSource (blob:); recordings preview from blob:
    'media-src': ["'self'", 'blob:', ...s3],
    // hls.js parses segments in a worker it creates from a blob: URL
    'worker-src': ["'self'", 'blob:'],
    'connect-src': [
      "'self'",
      ws,
      ...(jitsi ? [jitsi.https, jitsi.wss] : []),
      ...(razorpay ? RAZORPAY.connect : []),
      ...s3,
      ...extraConnect,
    ],
    'frame-src': [...(jitsi ? [jitsi.https] : []), ...(razorpay ? RAZORPAY.frame : [])],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'manifest-src': ["'self'"],
  };
  if (directives['frame-src']?.length === 0) directives['frame-src'] = ["'none'"];
  if (config.PUBLIC_URL.startsWith('https:')) directives['upgrade-insecure-requests'] = [];
  if (config.CSP_REPORT_URI) directives['report-uri'] = [config.CSP_REPORT_URI];
  return Object.entries(directives)
    .map(([k, v]) => [k, ...new Set(v)].join(' ').trim())
    .join('; ');
}

/** The headers every answer carries, pages and JSON alike (HSTS on https). */
function commonHeaders(config: HeaderConfig): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(config.PUBLIC_URL.startsWith('https:')
      ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

/** The page set: documents, assets and files. */
export function securityHeaders(config: HeaderConfig, scriptHashes: string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(config, scriptHashes),
    ...commonHeaders(config),
    // the conference asks for camera, microphone and screen: our origin (and the Jitsi frame) only
    'Permissions-Policy': permissionsPolicy(config),
    // popups keep their opener: Razorpay's bank pages report back through it
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    'X-DNS-Prefetch-Control': 'off',
    'X-Permitted-Cross-Domain-Policies': 'none',
  };
}

function permissionsPolicy(config: HeaderConfig): string {
  const jitsi = jitsiSources(config);
  const allowed = `(self${jitsi ? ` "${jitsi.https}"` : ''})`;
  return [
    `camera=${allowed}`,
    `microphone=${allowed}`,
    `display-capture=${allowed}`,
    `fullscreen=(self${jitsi ? ` "${jitsi.https}"` : ''})`,
    'geolocation=()',
    'payment=()',
    'usb=()',
  ].join(', ');
}

/**
 * What a JSON answer needs: it is never a document, so the page policy (long, and written out on every
 * call) gives way to one that allows nothing, the same as OWASP's advice for APIs.
 */
export function jsonSecurityHeaders(config: HeaderConfig): Record<string, string> {
  return { 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'", ...commonHeaders(config) };
}

/**
 * Adds the headers to every answer, errors and the static files included: the page set to documents,
 * files and assets, the JSON set to JSON answers (hot calls pay for a handful of short headers).
 */
export function installSecurityHeaders(app: FastifyInstance, config: HeaderConfig, webDist: string | null): void {
  const index = webDist ? path.join(webDist, 'index.html') : null;
  const hashes = index && existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
  const page = Object.entries(securityHeaders(config, hashes));
  const json = Object.entries(jsonSecurityHeaders(config));
  // a callback hook, not an async one: it runs on every answer and needs no promise
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const set = typeof type === 'string' && type.startsWith('application/json') ? json : page;
    for (const [name, value] of set) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    done(null, payload);
  });
}
