import { PASSWORD_MIN_LENGTH } from '@trainlab/contract';

export function newPasswordError(v: string): string | null {
  if (!v) return 'The password field is required.';
  if (v.length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  return null;
}

export function confirmationError(v: string, values: { password: string }): string | null {
  if (!v) return 'The password confirmation field is required.';
  if (v !== values.password) return 'The password confirmation does not match.';
  return null;
}
