export * from './app-error';
export * from './validate';
export * from './json-body';
export * from './storable-body';
export * from './request-id';
export * from './logger';
export * from './error-handler';
export * from './health';
export * from './favicon';
export * from './server';
export * from './client-error';
export * from './start';
export * from './rate-limit';

