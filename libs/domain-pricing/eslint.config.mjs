import base, { contractsRulesOnly } from '../../eslint.config.mjs';

// Pure pricing, no zod: of contracts, only the zod-free rules entry (the input limits, day arithmetic, money formatter).
export default [...base, contractsRulesOnly('domain-pricing')];
