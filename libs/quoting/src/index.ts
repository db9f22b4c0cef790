export * from './identifiers';
export * from './quote.service';
export * from './options/instant-eligibility';
export * from './options/option-rows';
export * from './options/plan-highlights';
export * from './options/options-worker';
export * from './checkout-link';
