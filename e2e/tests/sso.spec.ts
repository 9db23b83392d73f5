import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import Provider from 'oidc-provider';
import { login, screenshot } from '../support/session';

test.describe.configure({ mode: 'serial' });

/**
 * The organization's identity provider of this journey: oidc-provider on 127.0.0.1 with its
 * development login page (any login name signs in as that e-mail) and consent page.
 */
let server: Server;
let issuer = '';
const clientSecret = randomBytes(16).toString('hex');

test.beforeAll(async () => {
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => server?.close(() => r()));
});

function serveProvider(redirectUri: string) {
  const login = new URL('/login', redirectUri).href;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'trainlab',
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [login],
      },
    ],
    claims: { email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, given_name: 'Nila', family_name: 'Menon' }),
    }),
    conformIdTokenClaims: false,
  });
  server.on('request', provider.callback());
}

/** The provider's own sign-in page. */
async function signInThere(page: Page, email: string) {
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

async function signInAtProvider(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Login With Enterprise').check();
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: /^login$/i }).click();
}

test('a person of a configured domain signs in at their organization provider and lands on /ou/home', async ({
  browser,
}) => {
  const domain = `sso-${randomBytes(3).toString('hex')}.test`;
  // the organization's own account sets up single sign-on
  const org = await (await browser.newContext()).newPage();
  await login(org, 'org@demo.test');
  await expect(org).toHaveURL(/\/organization$/);
  await org.getByRole('link', { name: 'Single Sign-On' }).click();
  await expect(org.getByRole('heading', { level: 1, name: 'Single Sign-On' })).toBeVisible();
  const redirectUri = (await org.getByLabel('Redirect URI (OpenID Connect)', { exact: true }).textContent()) ?? '';
  expect(redirectUri).toMatch(/\/sso\/oidc\/[^/]+\/callback$/);
  serveProvider(redirectUri);
  await org.locator('label', { hasText: 'OpenID Connect' }).click();
  await expect(org.getByRole('radio', { name: 'OpenID Connect' })).toBeChecked();
  await org.getByRole('textbox', { name: 'E-mail domains' }).fill(domain);
  await org.getByRole('textbox', { name: 'Issuer URL' }).fill(issuer);
  await org.getByRole('textbox', { name: 'Client ID' }).fill('trainlab');
  await org.getByLabel('Client secret').fill(clientSecret);
  await org.getByRole('button', { name: 'Save' }).click();
  await expect(org.getByText('Single sign-on settings saved.')).toBeVisible();
  await expect(org.getByText('A secret is stored; leave blank to keep it.')).toBeVisible();
  await screenshot(org, 'sso-settings');
  // the domain routes no one until it is proved: here the TrainLab administrator vouches for it
  const proofs = org.getByRole('table', { name: 'Domain verification' });
  await expect(proofs.getByText('Not verified')).toBeVisible();
  await expect(proofs.getByLabel(`TXT name for ${domain}`, { exact: true })).toHaveText(`_trainlab.${domain}`);
  const orgToken = await org.evaluate(() => localStorage.getItem('token'));
  const saved = await org.request.post('/api/sso-settings', {
    data: {},
    headers: { Authorization: `Bearer ${orgToken}` },
  });
  const { organization_id } = (await saved.json()) as { organization_id: number };
  const admin = await (await browser.newContext()).newPage();
  await login(admin, 'admin@demo.test');
  // signed in (its home) before going on: a navigation now would cut the login short
  await expect(admin).not.toHaveURL(/\/login/);
  await admin.goto(`/admin/organization-sso/${organization_id}`);
  await admin.getByRole('button', { name: `Mark verified ${domain}` }).click();
  await expect(admin.getByText(`${domain}: The domain is marked verified.`)).toBeVisible();
  await expect(
    admin.getByRole('table', { name: 'Domain verification' }).getByText('Verified', { exact: true }),
  ).toBeVisible();
  await admin.context().close();

  const email = `nila@${domain}`;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAtProvider(page, email);
  await signInThere(page, email);
  await screenshot(page, 'sso-provider-consent');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/ou\/home$/);
  await expect(page.getByText('Nila').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screenshot(page, 'sso-ou-home');
  const first = await page.evaluate(() => ({ id: localStorage.getItem('id'), token: localStorage.getItem('token') }));
  expect(first.token).toBeTruthy();

  // logout ends our session, then the provider's (single logout), and comes back to /login
  await page.getByRole('button', { name: /logout/i }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer}/session/end`));
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const after = await page.request.post('/api/change-password', {
    headers: { authorization: `Bearer ${first.token}` },
    data: {},
  });
  expect(after.status()).toBe(401);

  // a second sign-in finds the same account
  await signInAtProvider(page, email);
  await signInThere(page, email);
  const consent = page.getByRole('button', { name: 'Continue' });
  await Promise.race([page.waitForURL(/\/ou\/home$/), consent.waitFor()]);
  if (await consent.isVisible()) await consent.click();
  await expect(page).toHaveURL(/\/ou\/home$/);
  const second = await page.evaluate(() => ({ id: localStorage.getItem('id'), token: localStorage.getItem('token') }));
  expect(second.id).toBe(first.id);
  expect(second.token).not.toBe(first.token);
  await context.close();
});

test('an e-mail of a domain without single sign-on is told so; a refused answer shows a way back', async ({ page }) => {
  await signInAtProvider(page, 'someone@no-sso.test');
  await expect(page.getByText('Enterprise login is not configured for this e-mail domain.')).toBeVisible();
  await page.goto('/sso/complete?error=expired');
  await expect(page.getByRole('alert')).toContainText('Your sign-in took too long or was already used.');
  await screenshot(page, 'sso-error');
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
