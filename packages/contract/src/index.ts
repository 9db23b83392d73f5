export * from './api.js';
export * from './lookups.js';
export * from './messages.js';
export * from './roles.js';
export * from './schemas/auth.js';
export * from './sidebar.js';
export * from './validation.js';
export * from './web-routes.js';
