/**
 * The loader's build version (`SvcWidget.version`). Bump it before `npm run widget:release -- <x.y.z>`: the release
 * command refuses a build that reports another version than the one it publishes.
 */
export const LOADER_VERSION = '1.1.1';
