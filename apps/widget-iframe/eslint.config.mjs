import base from '../../eslint.config.mjs';

// loader/ and frame/ are their own Nx projects (widget-loader, widget-frame) with their own lint targets.
export default [...base, { ignores: ['loader/**', 'frame/**', 'releases/**'] }];
