import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MSG, SSO_MSG, type SsoDomainState, type SsoSettings } from '@trainlab/contract';
import { describe, expect, it, vi } from 'vitest';
import { goToIdentityProvider } from '../src/features/auth/leave-app';
import { stubFetch } from './fetch-stub';
import { locationOf, renderApp, signIn } from './render-app';

vi.mock('../src/features/auth/leave-app', () => ({ goToIdentityProvider: vi.fn() }));

const ouSession = {
  token: 'tok-ou',
  roles: ['organization_user'],
  role: 'organization_user',
  first_name: 'Asha',
  last_name: 'Rao',
  email: 'asha@acme.test',
  mobile_no: null,
  slug: 'asha-rao',
  _id: 41,
};

const domainState = (domain: string, verified: boolean): SsoDomainState => ({
  domain,
  verified,
  verified_by: verified ? 'dns' : null,
  verified_at: verified ? '2026-11-20T10:00:00.000Z' : null,
  record_name: `_trainlab.${domain}`,
  record_value: `trainlab-verification=tok-${domain}`,
});

const settings = (over: Partial<SsoSettings> = {}): SsoSettings => ({
  organization_id: 7,
  organization_name: 'Acme',
  configured: true,
  protocol: 'saml',
  enabled: true,
  domains: ['acme.test'],
  domain_states: [domainState('acme.test', false)],
  saml_metadata_url: null,
  saml_idp_entity_id: 'https://idp.acme.test',
  saml_sso_url: 'https://idp.acme.test/sso',
  saml_slo_url: null,
  saml_idp_cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  oidc_issuer: null,
  oidc_client_id: null,
  has_client_secret: false,
  group_attribute: 'groups',
  subadmin_group: null,
  password_login_disabled: false,
  oidc_email_verified_not_sent: false,
  service_provider: {
    entity_id: 'http://app.test/sso/saml/acme/metadata',
    metadata_url: 'http://app.test/sso/saml/acme/metadata',
    acs_url: 'http://app.test/sso/saml/acme/acs',
    slo_url: 'http://app.test/sso/saml/acme/slo',
    redirect_uri: 'http://app.test/sso/oidc/acme/callback',
    signing_certificate: '-----BEGIN CERTIFICATE-----',
  },
  ...over,
});

describe('Login With Enterprise', () => {
  it('asks for the e-mail only and sends the browser to the identity provider', async () => {
    const net = stubFetch({ login: () => ({ body: { sso_redirect: 'https://idp.acme.test/sso?SAMLRequest=abc' } }) });
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Login With Enterprise' }));
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.getByTestId('sso-hint')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'asha@acme.test');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(goToIdentityProvider).toHaveBeenCalledWith('https://idp.acme.test/sso?SAMLRequest=abc'));
    expect(net.callsTo('login')[0]?.body).toEqual({
      email: 'asha@acme.test',
      password: '',
      is_previous: true,
      is_sso: true,
    });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows why an e-mail cannot sign in with its organization', async () => {
    stubFetch({
      login: () => ({ status: 422, body: { email: [MSG.ssoNotConfigured] } }),
    });
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Login With Enterprise' }));
    await user.type(screen.getByLabelText(/^Email/), 'someone@nowhere.test');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(MSG.ssoNotConfigured)).toBeInTheDocument();
  });
});

describe('logout after single sign-on', () => {
  it('ends our session, then sends the browser to end the provider session too', async () => {
    signIn(['organization_user']);
    stubFetch({
      logout: () => ({ body: { message: MSG.loggedOut, sso_logout: 'https://idp.acme.test/logout?SAMLRequest=x' } }),
    });
    renderApp('/ou/home');
    const button = (await screen.findAllByRole('button', { name: /logout/i }))[0]!;
    await userEvent.setup().click(button);
    await waitFor(() =>
      expect(goToIdentityProvider).toHaveBeenCalledWith('https://idp.acme.test/logout?SAMLRequest=x'),
    );
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('/sso/complete', () => {
  it('trades the one-time code for the session and lands on the role home', async () => {
    const net = stubFetch({ 'sso-exchange': () => ({ body: { success: ouSession } }) });
    const { router } = renderApp('/sso/complete?code=one-time');
    await waitFor(() => expect(locationOf(router)).toBe('/ou/home'));
    expect(net.callsTo('sso-exchange')).toHaveLength(1);
    expect(net.callsTo('sso-exchange')[0]?.body).toEqual({ code: 'one-time' });
    expect(localStorage.getItem('token')).toBe('tok-ou');
    expect(JSON.parse(localStorage.getItem('roles') ?? '[]')).toEqual(['organization_user']);
  });

  it('shows the reason of a refused sign-in with a way back to /login', async () => {
    stubFetch({});
    const { router } = renderApp('/sso/complete?error=expired');
    expect(await screen.findByRole('alert')).toHaveTextContent(SSO_MSG.errors.expired);
    expect(screen.getByRole('heading', { level: 1, name: 'Enterprise Login' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to Login' }));
    await waitFor(() => expect(locationOf(router)).toBe('/login'));
  });

  it('shows a used or expired code, and the one-session refusal', async () => {
    stubFetch({
      'sso-exchange': () => ({ status: 422, body: { code: [SSO_MSG.codeInvalid] } }),
    });
    renderApp('/sso/complete?code=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(SSO_MSG.codeInvalid);
  });

  it('an unknown reason still reads as a clear message', async () => {
    stubFetch({});
    renderApp('/sso/complete?error=whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent(SSO_MSG.errors.invalid_answer);
  });
});

describe('single sign-on settings', () => {
  it('shows our values, and saves the provider with the domains as a list', async () => {
    signIn(['organization']);
    const net = stubFetch({
      'sso-settings': () => ({ body: settings() }),
      'save-sso-settings': (body) => ({ body: { ...settings(), ...body, message: SSO_MSG.saved } }),
    });
    renderApp('/org/sso-settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Single Sign-On' })).toBeInTheDocument();
    expect(await screen.findByLabelText('ACS URL (SAML)')).toHaveTextContent('http://app.test/sso/saml/acme/acs');
    expect(screen.getByLabelText('Redirect URI (OpenID Connect)')).toHaveTextContent('/sso/oidc/acme/callback');
    expect(screen.getByRole('link', { name: 'Download our SAML metadata' })).toHaveAttribute(
      'href',
      'http://app.test/sso/saml/acme/metadata',
    );
    const user = userEvent.setup();
    const domains = screen.getByLabelText(/^E-mail domains/);
    await user.clear(domains);
    await user.type(domains, 'acme.test, acme.example');
    await user.click(screen.getByLabelText('People of these domains may not sign in with a password'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SSO_MSG.saved)).toBeInTheDocument();
    expect(net.callsTo('save-sso-settings')[0]?.body).toMatchObject({
      protocol: 'saml',
      domains: ['acme.test', 'acme.example'],
      saml_sso_url: 'https://idp.acme.test/sso',
      password_login_disabled: true,
    });
    expect(net.callsTo('save-sso-settings')[0]?.body).not.toHaveProperty('organization_id');
  });

  it('switches to OpenID Connect, keeps a stored secret unshown, and puts server errors under fields', async () => {
    signIn(['admin']);
    const net = stubFetch({
      'sso-settings': () => ({
        body: settings({
          protocol: 'oidc',
          oidc_issuer: 'https://login.acme.test',
          oidc_client_id: 'tl',
          has_client_secret: true,
        }),
      }),
      'save-sso-settings': () => ({
        status: 422,
        body: { oidc_issuer: ['The link must be a valid URL.'] },
      }),
    });
    renderApp('/admin/organization-sso/7');
    expect(await screen.findByLabelText(/^Issuer URL/)).toHaveValue('https://login.acme.test');
    expect(screen.getByText('A secret is stored; leave blank to keep it.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Client secret/)).toHaveValue('');
    expect(net.callsTo('sso-settings')[0]?.body).toEqual({ organization_id: 7 });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The link must be a valid URL.')).toBeInTheDocument();
    expect(net.callsTo('save-sso-settings')[0]?.body).toMatchObject({ organization_id: 7, protocol: 'oidc' });
  });

  it('shows each domain’s state and TXT record; Check now shows a refusal, then the verified domain', async () => {
    signIn(['organization']);
    let verified = false;
    let release: () => void = () => {};
    const net = stubFetch({
      'sso-settings': () => ({ body: settings({ domain_states: [domainState('acme.test', verified)] }) }),
      'check-sso-domain': async () => {
        if (net.callsTo('check-sso-domain').length === 1) {
          return { status: 422, body: { domain: [SSO_MSG.domainRecordMissing] } };
        }
        // the second check waits until the test has seen it loading
        await new Promise<void>((r) => {
          release = r;
        });
        verified = true;
        return {
          body: { ...settings({ domain_states: [domainState('acme.test', true)] }), message: SSO_MSG.domainVerified },
        };
      },
    });
    renderApp('/org/sso-settings');
    const table = await screen.findByRole('table', { name: 'Domain verification' });
    expect(within(table).getByText('Not verified')).toBeInTheDocument();
    expect(within(table).getByLabelText('TXT name for acme.test')).toHaveTextContent('_trainlab.acme.test');
    expect(within(table).getByLabelText('TXT value for acme.test')).toHaveTextContent(
      'trainlab-verification=tok-acme.test',
    );
    // marking by hand is the admin's, not the organization's
    expect(within(table).queryByRole('button', { name: /Mark verified/ })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(table).getByRole('button', { name: 'Check now acme.test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`acme.test: ${SSO_MSG.domainRecordMissing}`);
    expect(within(table).getByText('Not verified')).toBeInTheDocument();
    expect(net.callsTo('check-sso-domain')[0]?.body).toEqual({ domain: 'acme.test' });

    await user.click(within(table).getByRole('button', { name: 'Check now acme.test' }));
    await waitFor(() =>
      expect(within(table).getByRole('button', { name: 'Check now acme.test' })).toHaveAttribute('data-loading'),
    );
    release();
    expect(await screen.findByText(`acme.test: ${SSO_MSG.domainVerified}`)).toBeInTheDocument();
    expect(await within(table).findByText('Verified')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Check now acme.test' })).toBeNull();
    expect(screen.queryByText(SSO_MSG.domainRecordMissing, { exact: false })).toBeNull();
  });

  it('the admin marks a domain verified by hand', async () => {
    signIn(['admin']);
    const net = stubFetch({
      'sso-settings': () => ({ body: settings() }),
      'verify-sso-domain': () => ({
        body: {
          ...settings({ domain_states: [domainState('acme.test', true)] }),
          message: SSO_MSG.domainMarkedVerified,
        },
      }),
    });
    renderApp('/admin/organization-sso/7');
    const table = await screen.findByRole('table', { name: 'Domain verification' });
    await userEvent.setup().click(within(table).getByRole('button', { name: 'Mark verified acme.test' }));
    expect(await screen.findByText(`acme.test: ${SSO_MSG.domainMarkedVerified}`)).toBeInTheDocument();
    expect(net.callsTo('verify-sso-domain')[0]?.body).toEqual({
      organization_id: 7,
      domain: 'acme.test',
      verified: true,
    });
  });

  it('shows a loading failure', async () => {
    signIn(['organization']);
    stubFetch({ 'sso-settings': () => ({ status: 404, body: { message: 'Not Found' } }) });
    renderApp('/org/sso-settings');
    const main = await screen.findByRole('heading', { level: 1, name: 'Single Sign-On' });
    expect(main).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(within(document.body).queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
