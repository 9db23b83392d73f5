import type { SessionUser } from '@trainlab/contract';

/** A password login answers the session; a login with is_sso answers the identity provider to go to. */
export type LoginResponse = { success: SessionUser } | { sso_redirect: string };

export interface RegisterResponse {
  success: SessionUser;
  message: string;
}

export interface MessageResponse {
  message: string;
}

export interface Option {
  id: number;
  name: string;
}
