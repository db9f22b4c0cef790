import nx from '@nx/eslint-plugin';

export const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
  { sourceTag: 'scope:pricing', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:db', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:pricing'] },
  { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'scope:signature', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'scope:payments', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:signature'] },
  { sourceTag: 'scope:http', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'scope:operators', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:db', 'scope:auth'] },
  { sourceTag: 'scope:fulfillment', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:pricing', 'scope:db', 'scope:payments', 'scope:quoting'] },
  { sourceTag: 'scope:quoting', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:pricing', 'scope:db', 'scope:http'] },
  { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:universal'] }
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/eslint.config.mjs', '**/jest.config.cjs', '**/dist', '**/node_modules', '**/generated', '**/.data', '**/tmp', 'apps/*/public/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints,
          banTransitiveDependencies: false
        },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'tools/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
];
