import { MSG, SSO_MSG } from '@trainlab/contract';
import type { Deps } from '../../platform/deps';
import { forbidden, invalidField } from '../../platform/errors';
import { SsoError, targetForEmail } from './sign-in';

/** /login with is_sso: the identity provider of the e-mail's organization, where the browser goes next. */
export async function startSso(deps: Deps, email: string, isPrevious: boolean, log: (msg: string) => void) {
  const target = await targetForEmail(deps, email);
  if (!target) throw invalidField('email', MSG.ssoNotConfigured);
  // the same answers as a password login of a person of this organization
  if (target.org.status !== 1 || target.org.is_approved !== 1) throw forbidden(MSG.accountInactive, 'account_inactive');
  try {
    const url =
      target.row.protocol === 'oidc'
        ? await (await import('./oidc')).oidcStart(deps, target, isPrevious)
        : await (await import('./saml')).samlStart(deps, target, isPrevious);
    return { sso_redirect: url };
  } catch (e) {
    const err = e instanceof SsoError ? e : new SsoError('misconfigured', (e as Error).message);
    log(`single sign-on of organization ${target.org.id} cannot start: ${err.detail}`);
    throw invalidField('email', SSO_MSG.errors.misconfigured);
  }
}
