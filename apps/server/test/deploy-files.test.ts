import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The production image and compose.yaml (docs/operations.md, "Deploying with the image"): CI builds
 * the image and runs it (npm run image, npm run image:check: npm test's last step); what can go stale
 * without a build is checked here, in every run: the paths they name, the settings they pass, and
 * the promises (non-root, health check, production, a data volume).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const dockerfile = read('Dockerfile');
const compose = read('compose.yaml');
const config = read('apps/server/src/platform/config.ts');

/** The `KEY:` lines under one service's `environment:` in compose.yaml. */
function environmentOf(service: string): string[] {
  const block = compose.split(/\n {2}(?=[a-z-]+:\n)/).find((b) => b.startsWith(`${service}:\n`)) ?? '';
  const env = block.split(/\n {4}environment:\n/)[1]?.split(/\n {4}[a-z]/)[0] ?? '';
  return [...env.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

describe('the production image and compose.yaml', () => {
  it('the image runs production as a non-root account, with a health check and a data volume', () => {
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=debian:bookworm-slim$/m);
    expect(dockerfile).toMatch(/^USER trainlab:trainlab$/m);
    expect(dockerfile).toMatch(/useradd --system --uid 10001/);
    expect(dockerfile).toMatch(/NODE_ENV=production/);
    expect(dockerfile).toMatch(/DATA_DIR=\/var\/lib\/trainlab/);
    expect(dockerfile).toMatch(/^VOLUME \["\/var\/lib\/trainlab"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/api\/health/m);
  });

  it('what the Dockerfile copies and runs is what scripts/image.mjs assembles', () => {
    const script = read('scripts/image.mjs');
    expect(dockerfile).toMatch(/^COPY node \/usr\/local\/bin\/node$/m);
    expect(dockerfile).toMatch(/^COPY app \/opt\/trainlab$/m);
    expect(script).toContain("path.join(ctx, 'node')");
    expect(script).toContain("path.join(app, 'apps/server/dist')");
    expect(script).toContain("path.join(app, 'apps/web/dist')");
    expect(dockerfile).toContain('CMD ["node", "apps/server/dist/main.js"]');
    // the bundle's entry and the folders the server looks for beside it (app.ts, db/client.ts)
    expect(read('apps/server/scripts/build.mjs')).toContain("main: 'src/main.ts'");
    expect(existsSync(path.join(root, 'apps/server/drizzle/meta'))).toBe(true);
  });

  it("compose.yaml's Janus build context exists and its start script is valid shell", () => {
    expect(compose).toContain('context: deploy/janus');
    for (const file of ['deploy/janus/Dockerfile', 'deploy/janus/start.sh'])
      expect(existsSync(path.join(root, file))).toBe(true);
    expect(spawnSync('sh', ['-n', path.join(root, 'deploy/janus/start.sh')]).status).toBe(0);
    expect(read('deploy/janus/Dockerfile')).toMatch(/^USER trainlab:trainlab$/m);
  });

  it('the app service passes only settings the server knows, and every "Before going live" one', () => {
    const env = environmentOf('trainlab');
    expect(env.length).toBeGreaterThan(10);
    // read by dockerode itself, not by config.ts
    const engine = ['DOCKER_HOST', 'DOCKER_TLS_VERIFY', 'DOCKER_CERT_PATH'];
    for (const name of env.filter((n) => !engine.includes(n))) expect(config).toMatch(new RegExp(`^ {2}${name}:`, 'm'));
    for (const name of [
      'PUBLIC_URL',
      'FIELD_ENCRYPTION_KEYS',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'PAYMENT_GATEWAY',
      'TRUST_PROXY',
      'OUTBOUND_ALLOW_PRIVATE',
      'DNS_RESOLVER',
      'LAB_PROVIDER',
      'DATABASE_URL',
      'REDIS_URL',
    ])
      expect(env).toContain(name);
    // the Docker socket is never handed to the app: it is root on the host
    expect(compose).not.toMatch(/^\s*-\s*\/var\/run\/docker\.sock/m);
    expect(compose).toMatch(/trainlab-data:\/var\/lib\/trainlab/);
  });
});
