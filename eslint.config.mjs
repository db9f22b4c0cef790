import nx from '@nx/eslint-plugin';

export const depConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
  // domain-pricing reads its input limits from contracts' zod-free rules entry (libs/domain-pricing/eslint.config.mjs
  // allows that entry only); contracts depends on nothing.
  { sourceTag: 'scope:pricing', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
  // The traveler's languages (messages, Intl formatting, negotiation): universal and pure, used by servers and browsers.
  { sourceTag: 'scope:i18n', onlyDependOnLibsWithTags: [] },
  // platform (clock, ids, logger type, polling loop, rate limiter, env schema pieces) and observability are Node-only
  // and depend on no project but contracts, the pure lib that depends on nothing (observability reads the one `Mode`
  // type there; contractsRulesOnly below keeps such a lib to the zod-free rules entry). Every Node project may use
  // them. domain-pricing and contracts stay universal and pure, so not them.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'scope:db', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts'] },
  { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts'] },
  { sourceTag: 'scope:signature', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:payments', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts', 'scope:signature'] },
  { sourceTag: 'scope:http', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts'] },
  {
    sourceTag: 'scope:operators',
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts', 'scope:db', 'scope:auth'],
  },
  {
    sourceTag: 'scope:fulfillment',
    onlyDependOnLibsWithTags: [
      'scope:shared',
      'scope:contracts',
      'scope:pricing',
      'scope:db',
      'scope:payments',
      'scope:quoting',
    ],
  },
  { sourceTag: 'scope:mail', onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts'] },
  // The policyholder's documents (certificate, read model of a stored policy): rendered by quote-api and by the mail
  // worker, so they live in a lib both can use.
  {
    sourceTag: 'scope:documents',
    onlyDependOnLibsWithTags: [
      'scope:shared',
      'scope:contracts',
      'scope:pricing',
      'scope:db',
      'scope:fulfillment',
      'scope:i18n',
    ],
  },
  // Quoting raises its own domain errors (QuotingError); each app maps them to HTTP at its edge, so no http-kit here.
  {
    sourceTag: 'scope:quoting',
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:contracts', 'scope:pricing', 'scope:db', 'scope:i18n'],
  },
  // Platforms: browser code (the widget loader and iframe, the portal UI) may use only universal libs (pure TS, no
  // Node API: contracts, domain-pricing) and other browser libs; universal libs stay universal. Node-only libs
  // (db, payments, http-kit, …) are tagged platform:node, so a browser project importing them is a lint error
  // (tools/checks/platform-boundaries.spec.ts proves it on a throwaway browser project).
  { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:universal', 'platform:browser'] },
  { sourceTag: 'platform:universal', onlyDependOnLibsWithTags: ['platform:universal'] },
];

/**
 * For a project's own eslint.config.mjs: of contracts, only the zod-free `@expedition/contracts/rules` entry (limits,
 * day arithmetic, the `Mode` type, the money formatter), never the wire schemas.
 */
export const contractsRulesOnly = (project) => ({
  files: ['src/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^@expedition/contracts(?!/rules$)',
            message: `${project} reads only @expedition/contracts/rules (zod-free); wire schemas stay out of it.`,
          },
        ],
      },
    ],
  },
});

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: [
      '**/eslint.config.mjs',
      '**/jest.config.cjs',
      '**/dist',
      '**/node_modules',
      '**/generated',
      '**/.data',
      '**/tmp',
      'apps/*/public/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints,
          banTransitiveDependencies: false,
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
