import { z } from 'zod';
import { PORTAL_LIMITS } from '../rules';

/**
 * `PUT /operator/branding` of the portal API: the operator's optional look of its checkout-link pages
 * (docs/portal-api.md, Branding). The portal checks the values further (libs/operators branding.ts): a #rrggbb colour
 * white text reads on at WCAG AA 4.5:1, an https logo URL without credentials or fragment.
 */
export const UpdateBrandingRequestSchema = z
  .object({
    brandColor: z.string().max(PORTAL_LIMITS.maxBrandColor).nullable().optional().meta({
      description:
        'Accent of the checkout pages, #rrggbb; white text on it must reach 4.5:1 (else 400). null or "" clears it; left out: unchanged.',
    }),
    logoUrl: z.string().max(PORTAL_LIMITS.maxLogoUrl).nullable().optional().meta({
      description:
        'https URL of a logo shown on the checkout pages (at most 160×40 px, alt text the operator name). null or "" clears it.',
    }),
  })
  .strict()
  .meta({ id: 'UpdateBrandingRequest' });
