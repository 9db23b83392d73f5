import type { ApiCall } from '../api-base.js';

export const MASTER_DATA_CALLS = {} satisfies Record<string, ApiCall>;
