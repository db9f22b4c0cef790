import base from '../../eslint.config.mjs';

// ui/ is its own Nx project (portal-ui, platform:browser) with its own lint target.
export default [...base, { ignores: ['ui/**'] }];
