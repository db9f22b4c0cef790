import { portalFuzzSuite } from './src/portal';
import { FUZZ_PORTS } from './src/suite';

/** Operator portal, first half: accounts, team, dev pages and the provider admin's routes. */
portalFuzzSuite(
  'operator-portal (accounts, team, admin)',
  FUZZ_PORTS.portal,
  (path) => !path.startsWith('/api/portal/v1/operator'),
);
