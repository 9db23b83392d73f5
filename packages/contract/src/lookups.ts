/** Lookup lists and business constants named by the specification. */
export const OPERATING_SYSTEMS = ['windows', 'ubuntu'] as const;
export const BROWSERS = { Firefox: 1, 'Google Chrome': 2 } as const;
export const CLOUD_ZONES = [
  'us-central1-a',
  'us-central1-b',
  'us-central1-c',
  'asia-south1-a',
  'asia-south1-b',
  'asia-south1-c',
  'asia-south2-a',
  'asia-south2-b',
  'asia-south2-c',
] as const;
export const LEVELS = ['Beginner', 'Intermediate', 'Advanced', 'Foundation', 'Associate', 'Professional'] as const;
export const CLOUD_VENDORS = ['Google', 'AWS', 'Microsoft'] as const;

export const LOGIN_ERROR_CLEAR_MS = 3000;
export const PASSWORD_MIN_LENGTH = 8;
export const RESET_LINK_MINUTES = 60;
export const CAROUSEL_AUTOPLAY_MS = 1500;
