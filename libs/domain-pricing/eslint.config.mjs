import base from '../../eslint.config.mjs';

export default [
  ...base,
  // Pure pricing, no zod: of contracts, only the zod-free rules entry (the input limits and day arithmetic).
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@expedition/contracts(?!/rules$)',
              message:
                'domain-pricing reads only @expedition/contracts/rules (zod-free); wire schemas stay out of pricing.',
            },
          ],
        },
      ],
    },
  },
];
