export * from './accounts';
export * from './outbox';
