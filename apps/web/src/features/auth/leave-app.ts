/** Leaves the app for the identity provider (a full navigation: the provider is another site). */
export function goToIdentityProvider(url: string): void {
  window.location.assign(url);
}
