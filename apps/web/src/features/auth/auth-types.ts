import type { SessionUser } from '@trainlab/contract';

export interface LoginResponse {
  success: SessionUser;
}

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
