// The data layer must not depend on the process's time zone (a DateTime is a UTC instant in every process): its tests
// run far from UTC, so a conversion through local time fails here (test/direct-rows.spec.ts). Set before Jest starts
// its workers, which inherit it.
process.env.TZ = 'Pacific/Chatham';

module.exports = { ...require('../../jest.preset.js'), displayName: 'db', rootDir: __dirname };
