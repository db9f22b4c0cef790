export * from './app-error';
export * from './validate';
export * from './storable-body';
export * from './request-id';
export * from './logger';
export * from './error-handler';
export * from './health';
export * from './server';
export * from './start';
export * from './rate-limit';

