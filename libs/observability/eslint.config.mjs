import base, { contractsRulesOnly } from '../../eslint.config.mjs';

// A shared lib: of contracts, only the zod-free rules entry (the root eslint.config.mjs says why).
export default [...base, contractsRulesOnly('observability')];
