import { z } from 'zod';
import { MOUNT_CONFIG_LIMITS as L, type MountConfig, type WidgetAppearance } from '../widget-protocol';

/**
 * `SvcWidget.mount(target, config)`'s config as a zod schema: for documentation, the portal's snippet builder and
 * server-side checks. The loader validates by hand (no zod in a 3 KB script); a test in apps/widget-iframe/loader
 * proves both accept and refuse the same samples. Source of truth for the types: `../widget-protocol`.
 */
const css = z.string().max(L.maxCssValue).regex(L.cssValue);
const isoDate = z.string().regex(L.isoDate);

export const WidgetAppearanceSchema = z
  .object({
    accentColor: css.optional(),
    backgroundColor: css.optional(),
    textColor: css.optional(),
    borderRadius: css.optional(),
    fontFamily: css.optional(),
    theme: z.enum(['light', 'dark', 'auto']).optional(),
  })
  .meta({ id: 'WidgetAppearance' });

export const MountConfigSchema = z
  .object({
    publishableKey: z.string().regex(L.publishableKey).optional(),
    pk: z.string().regex(L.publishableKey).optional(),
    destination: z.string().trim().min(1).max(L.maxDestination).optional(),
    startDate: isoDate.optional(),
    endDate: isoDate.optional(),
    tripCost: z.number().finite().nonnegative().max(L.maxTripCost).optional(),
    travelers: z.number().int().min(1).max(L.maxTravelers).optional(),
    travelerAges: z.array(z.number().int().min(0).max(L.maxAge)).max(L.maxTravelers).optional(),
    travelerDobs: z.array(isoDate).max(L.maxTravelers).optional(),
    residence: z.string().trim().min(2).max(L.maxResidence).optional(),
    state: z.string().trim().max(L.maxResidence).optional(),
    email: z.string().max(L.maxEmail).regex(L.email).optional(),
    name: z.string().max(L.maxName).optional(),
    currency: z.string().regex(L.currency).optional(),
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
    locale: z.string().regex(L.locale).optional(),
    appearance: WidgetAppearanceSchema.optional(),
    autoResize: z.boolean().optional(),
    title: z.string().trim().min(1).max(L.maxTitle).optional(),
    loadTimeoutMs: z.number().int().min(L.minLoadTimeoutMs).max(L.maxLoadTimeoutMs).optional(),
  })
  .refine((c) => c.publishableKey !== undefined || c.pk !== undefined, {
    path: ['publishableKey'],
    message: 'publishableKey is required',
  })
  .refine((c) => c.publishableKey === undefined || c.pk === undefined || c.publishableKey === c.pk, {
    path: ['pk'],
    message: 'pk and publishableKey differ',
  })
  .meta({ id: 'MountConfig' });

// Both directions, so the schema and the protocol's interfaces cannot drift apart.
type Assignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _mountConfigMatchesProtocol = true satisfies Assignable<z.infer<typeof MountConfigSchema>, MountConfig>;
const _appearanceMatchesProtocol = true satisfies Assignable<z.infer<typeof WidgetAppearanceSchema>, WidgetAppearance>;
