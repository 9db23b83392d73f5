import { useLocation } from 'react-router';

/** A success text handed to the next page through navigation state (e.g. after register). */
export interface FlashState {
  message?: string;
}

export function useFlashMessage(): string | null {
  const location = useLocation();
  const state = location.state as FlashState | null;
  return typeof state?.message === 'string' ? state.message : null;
}
