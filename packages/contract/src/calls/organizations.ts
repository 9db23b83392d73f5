import type { ApiCall } from '../api-base.js';

export const ORGANIZATION_CALLS = {} satisfies Record<string, ApiCall>;
