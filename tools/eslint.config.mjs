import base, { depConstraints } from '../eslint.config.mjs';

// Composition roots (launcher, admin CLI, e2e harnesses, benchmarks) wire apps together; apps never import apps.
export default [
  ...base,
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [
            '@expedition/app-quote-api',
            '@expedition/app-embed-api',
            '@expedition/app-webhook-dispatcher',
            '@expedition/app-operator-portal',
            '@expedition/app-widget-iframe',
          ],
          depConstraints,
          banTransitiveDependencies: false,
        },
      ],
    },
  },
];
