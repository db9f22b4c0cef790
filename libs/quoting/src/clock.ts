/** @deprecated moved to @expedition/platform */
export { type Clock, isoDay } from '@expedition/platform';
