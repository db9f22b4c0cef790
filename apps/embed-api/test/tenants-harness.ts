import { capturingProcessor, createHarness, OTHER_SITE_ORIGIN, seedTenant, type Harness } from './harness';

/*
 * The app and tenants of a spec file that registered one of the hooks below (live: set before its tests run).
 */
type Tenant = Awaited<ReturnType<typeof seedTenant>>;
export let h: Harness;
/** The tenant the file's requests come from (useTwoTenants, useOneTenant). */
export let mine: Tenant;
/** Another operator, on OTHER_SITE_ORIGIN (useTwoTenants). */
export let theirs: Tenant;

/** Registers the file's hooks: the harness and two tenants before its tests, closed after. */
export function useTwoTenants(): void {
  beforeAll(async () => {
    h = await createHarness();
    mine = await seedTenant(h.prisma);
    theirs = await seedTenant(h.prisma, { origins: [OTHER_SITE_ORIGIN] });
  });
  afterAll(() => h.close());
}

/** Registers the file's hooks: the harness with a capturing simulated processor and one tenant, closed after. */
export function useOneTenant(): void {
  beforeAll(async () => {
    h = await createHarness({ payments: (clock) => ({ processor: capturingProcessor(clock).processor }) });
    mine = await seedTenant(h.prisma);
  });
  afterAll(() => h.close());
}
