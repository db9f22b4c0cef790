import { portalFuzzSuite } from './src/portal';
import { FUZZ_PORTS } from './src/suite';

/** Operator portal, second half: the operator's own routes (keys, origins, integration, webhook, dashboard, audit). */
portalFuzzSuite('operator-portal (operator)', FUZZ_PORTS.portalOperator, (path) =>
  path.startsWith('/api/portal/v1/operator'),
);
