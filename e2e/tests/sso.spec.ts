import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, expect, type Page, test } from '@playwright/test';
import Provider from 'oidc-provider';
import { startSamlIdp, type TestSamlIdp } from '../support/saml-idp';
import { DEMO_PASSWORD, login, screenshot } from '../support/session';

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

/** The organization's own account, signed in, on its Single Sign-On settings. */
async function orgSsoSettings(browser: Browser): Promise<Page> {
  const org = await (await browser.newContext()).newPage();
  await login(org, 'org@demo.test');
  await expect(org).toHaveURL(/\/organization$/);
  await org.getByRole('link', { name: 'Single Sign-On' }).click();
  await expect(org.getByRole('heading', { level: 1, name: 'Single Sign-On' })).toBeVisible();
  return org;
}

/** The organization's single sign-on settings as stored, read with the session of its page. */
async function savedSsoSettings(org: Page) {
  const orgToken = await org.evaluate(() => localStorage.getItem('token'));
  return org.request.post('/api/sso-settings', {
    data: {},
    headers: { Authorization: `Bearer ${orgToken}` },
  });
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
  const org = await orgSsoSettings(browser);
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
  const saved = await savedSsoSettings(org);
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

/**
 * SAML on the server `npm start` runs (issue 38: the SAML library, loaded on first use, did not load
 * from the bundle): the organization reads its IdP from metadata, a person signs in through an
 * HTTP-Redirect AuthnRequest and a signed HTTP-POST Response, and our logout ends the IdP's session
 * too (single logout: our signed LogoutRequest out, the IdP's signed LogoutResponse posted back).
 */
test('a person signs in through the organization SAML provider, and single logout ends both sessions', async ({
  browser,
}) => {
  const idp: TestSamlIdp = await startSamlIdp();
  try {
    const domain = `saml-${randomBytes(3).toString('hex')}.test`;
    const org = await orgSsoSettings(browser);
    const metadataUrl = (await org.getByLabel('Entity ID (SAML)', { exact: true }).textContent()) ?? '';
    expect(metadataUrl).toMatch(/\/sso\/saml\/[^/]+\/metadata$/);
    await org.locator('label', { hasText: 'SAML 2.0' }).click();
    await expect(org.getByRole('radio', { name: 'SAML 2.0' })).toBeChecked();
    await org.getByRole('textbox', { name: 'E-mail domains' }).fill(domain);
    await org.getByRole('textbox', { name: 'IdP metadata URL' }).fill(idp.metadataUrl);
    await org.getByRole('button', { name: 'Save' }).click();
    await expect(org.getByText('Single sign-on settings saved.')).toBeVisible();
    // our service-provider metadata, as the IdP's administrator downloads it
    const spMetadata = await org.request.get(metadataUrl);
    expect(spMetadata.status(), await spMetadata.text()).toBe(200);
    expect(await spMetadata.text()).toContain(`entityID="${metadataUrl}"`);
    const saved = await savedSsoSettings(org);
    const settings = (await saved.json()) as { organization_id: number; saml_slo_url: string | null };
    expect(settings.saml_slo_url).toBe(idp.sloUrl);
    await org.context().close();
    // the TrainLab administrator vouches for the domain (the OIDC journey does it on the screen)
    const adminLogin = await browser.newContext();
    const session = await adminLogin.request.post('/api/login', {
      data: { email: 'admin@demo.test', password: DEMO_PASSWORD, is_previous: true },
    });
    const adminToken = ((await session.json()) as { success: { token: string } }).success.token;
    const verified = await adminLogin.request.post('/api/verify-sso-domain', {
      data: { organization_id: settings.organization_id, domain, verified: true },
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(verified.status(), await verified.text()).toBe(200);
    await adminLogin.close();

    const email = `asha@${domain}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAtProvider(page, email);
    // the IdP's page: our AuthnRequest arrived on the HTTP-Redirect binding
    await expect(page).toHaveURL(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
    await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    // the signed Response goes to our ACS on the HTTP-POST binding
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/ou\/home$/);
    await expect(page.getByText('Asha').first()).toBeVisible();
    await screenshot(page, 'sso-saml-ou-home');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();

    // logout: our session ends, our signed LogoutRequest goes to the IdP, its LogoutResponse comes back
    await page.getByRole('button', { name: /logout/i }).click();
    await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible();
    expect(idp.logoutRequestsSeen).toHaveLength(1);
    expect(idp.logoutRequestsSeen[0]!.get('Signature')).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const after = await page.request.post('/api/change-password', {
      headers: { authorization: `Bearer ${token}` },
      data: {},
    });
    expect(after.status()).toBe(401);
    await context.close();
  } finally {
    await idp.close();
  }
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
