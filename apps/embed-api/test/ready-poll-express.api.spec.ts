import { mintPublishableKey, mintSecretKey } from '@expedition/auth-publishable-key';
import { OTHER_SITE_ORIGIN, PORTAL_ORIGIN, SITE_ORIGIN } from './harness';
import {
  expectSameAnswers,
  expectSameCounters,
  mine,
  optionsPath,
  pending,
  poll,
  ready,
  revokedKey,
  suspended,
  theirs,
  UNKNOWN_QUOTE,
  useTwoPaths,
  type Case,
} from './ready-poll-harness';

// The requests the ready poll must leave to Express, and the proof that Express answers them exactly as it does with
// no fast path in front (see ready-poll-harness.ts): another operator's quote, unknown and malformed ids, every gate
// refusal, pending quotes, other spellings of the path, other methods.
useTwoPaths();

const LEFT_TO_EXPRESS: Case[] = [
  // Cross-tenant and the existence oracle: never answered before Express.
  [
    "another operator's ready quote",
    () => poll(optionsPath(`?quoteId=${ready.theirs}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    "another operator's quote via ?pk, header blank",
    () => poll(optionsPath(`?quoteId=${ready.theirs}&pk=${mine.testKey}`), { key: '', origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    "own key in the header, the quote owner's key in ?pk",
    () =>
      poll(optionsPath(`?quoteId=${ready.theirs}&pk=${theirs.testKey}`), {
        key: mine.testKey,
        origin: OTHER_SITE_ORIGIN,
      }),
    { status: 403, fast: false },
  ],
  [
    "the owner's key from another operator's origin",
    () => poll(optionsPath(`?quoteId=${ready.theirs}`), { key: theirs.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'unknown quote',
    () => poll(optionsPath(`?quoteId=${UNKNOWN_QUOTE}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'quote id in upper case (malformed)',
    () => poll(optionsPath(`?quoteId=${ready.mine.toUpperCase()}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'quoteId repeated',
    () => poll(optionsPath(`?quoteId=${ready.mine}&quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'quoteId with a NUL',
    () => poll(optionsPath(`?quoteId=${ready.mine}%00`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'quoteId[] (not the parameter)',
    () => poll(optionsPath(`?quoteId[]=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 400, fast: false },
  ],
  [
    'quoteId missing',
    () => poll(optionsPath(''), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 400, fast: false },
  ],
  [
    'quoteId blank',
    () => poll(optionsPath('?quoteId=%20'), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 400, fast: false },
  ],
  [
    'pending quote',
    () => poll(optionsPath(`?quoteId=${pending}`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: false },
  ],

  // The gate's refusals, for a ready cached quote.
  ['no key', () => poll(optionsPath(`?quoteId=${ready.mine}`), { origin: SITE_ORIGIN }), { status: 401, fast: false }],
  [
    'unknown key',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mintPublishableKey('test'), origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    'malformed key',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: 'pk_op_test_nothex', origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    'a secret key',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mintSecretKey('test').key, origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    'revoked key',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: revokedKey, origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    'key of an operator suspended after its quote was cached',
    () => poll(optionsPath(`?quoteId=${ready.suspended}`), { key: suspended.testKey, origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    '?pk repeated',
    () => poll(optionsPath(`?quoteId=${ready.mine}&pk=${mine.testKey}&pk=${mine.testKey}`), { origin: SITE_ORIGIN }),
    { status: 401, fast: false },
  ],
  [
    'key header sent twice',
    () =>
      poll(optionsPath(`?quoteId=${ready.mine}`), {
        origin: SITE_ORIGIN,
        extra: [`X-SVC-Publishable-Key: ${mine.testKey}`, `X-SVC-Publishable-Key: ${mine.testKey}`],
      }),
    { status: 401, fast: false },
  ],
  [
    'live key from the test-only dashboard origin',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.liveKey, origin: PORTAL_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'origin not allowed',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: OTHER_SITE_ORIGIN }),
    { status: 403, fast: false },
  ],
  [
    'Origin missing',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey }),
    { status: 403, fast: false },
  ],
  [
    'Origin null',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: 'null' }),
    { status: 403, fast: false },
  ],
  [
    'Origin with a path',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: `${SITE_ORIGIN}/shop` }),
    { status: 403, fast: false },
  ],
  [
    'Origin sent twice',
    () =>
      poll(optionsPath(`?quoteId=${ready.mine}`), {
        key: mine.testKey,
        origin: SITE_ORIGIN,
        extra: [`Origin: ${SITE_ORIGIN}`],
      }),
    { status: 403, fast: false },
  ],

  // Other spellings, methods and forms: Express's, unchanged.
  [
    'HEAD',
    () => poll(optionsPath(`?quoteId=${ready.mine}`), { key: mine.testKey, origin: SITE_ORIGIN }, 'HEAD'),
    { status: 200, fast: false },
  ],
  [
    'trailing slash',
    () => poll(`/api/embed/options/?quoteId=${ready.mine}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: false },
  ],
  [
    'path in another case',
    () => poll(`/API/Embed/OPTIONS?quoteId=${ready.mine}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: false },
  ],
  [
    'percent-encoded path',
    () => poll(`/api/embed/%6Fptions?quoteId=${ready.mine}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 404, fast: false },
  ],
  [
    'encoded slash in the path',
    () => poll(`/api/embed%2Foptions?quoteId=${ready.mine}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 404, fast: false },
  ],
  [
    'a longer path',
    () => poll(`/api/embed/optionsx?quoteId=${ready.mine}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 404, fast: false },
  ],
  [
    'a fragment in the target',
    () => poll(optionsPath(`?quoteId=${ready.mine}#x`), { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: false },
  ],
  [
    'absolute-form target',
    () => poll(`http://127.0.0.1${optionsPath(`?quoteId=${ready.mine}`)}`, { key: mine.testKey, origin: SITE_ORIGIN }),
    { status: 200, fast: false },
  ],
  [
    'OPTIONS (preflight)',
    () =>
      poll(
        optionsPath(`?quoteId=${ready.mine}`),
        { origin: SITE_ORIGIN, extra: ['Access-Control-Request-Method: GET'] },
        'OPTIONS',
      ),
    { status: 204, fast: false },
  ],
  [
    'POST',
    () =>
      poll(
        optionsPath(`?quoteId=${ready.mine}`),
        { key: mine.testKey, origin: SITE_ORIGIN, extra: ['Content-Length: 0'] },
        'POST',
      ),
    { status: 404, fast: false },
  ],
];

describe('the ready poll leaves these to Express, which answers them as without it', () => {
  expectSameAnswers(LEFT_TO_EXPRESS);

  it('counts the same metrics and key uses on both paths (after the whole table)', async () => {
    await expectSameCounters();
  });
});
