export * from './accounts';
export * from './certificates';
export * from './jobs';
export * from './master-data';
export * from './organizations';
export * from './otp';
export * from './outbox';
export * from './trainings';
