/**
 * What every public OpenAPI document of ours declares alike. The APIs are the provider's own service, offered under
 * its terms to operators and agent platforms; no open-source licence applies to them.
 */
export const API_LICENSE = { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' } as const;
