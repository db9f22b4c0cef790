import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword, passwordProblem, verifyPassword } from '../src/lib/accounts/passwords';

describe('passwordProblem', () => {
  it.each([
    ['a short one', 'short-pass', /at least 12/],
    ['a common one (any case)', 'Password1234', /too common/],
    ['one repeated character', 'zzzzzzzzzzzzzz', /too easy/],
    ['one over 256 characters', 'x'.repeat(257), /at most 256/],
  ])('refuses %s', (_what, password, reason) => {
    expect(passwordProblem(password)).toMatch(reason);
  });

  it('refuses a password containing the e-mail address, accepts a long passphrase', () => {
    expect(passwordProblem('me@example.com-and-more', { email: 'me@example.com' })).toMatch(/e-mail/);
    expect(passwordProblem('correct horse battery staple 9')).toBeNull();
  });

  it.each([
    'passwordpassword',
    '1qaz2wsx3edc4rfv',
    'qwertyuiopasdfghjkl',
    '123123123123',
    'iloveyou123456',
    'trustno1trustno1',
    'monkey12345678',
    'zaq12wsxcde3',
  ])('refuses the breached or patterned password %s (zxcvbn dictionaries, offline)', (password) => {
    expect(passwordProblem(password)).toMatch(/too common or too easy to guess/);
  });

  it('judges the NFKC form: full-width "ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ" is "passwordpassword"', () => {
    expect(passwordProblem('ｐａｓｓｗｏｒｄｐａｓｓｗｏｒｄ')).toMatch(/too common/);
  });
});

describe('why a password is refused, in words a person acts on', () => {
  it('names what the password is built from, and gives our advice, not a hint towards capitals', () => {
    const why = passwordProblem('Expedition2026!', { email: 'z@x.example', names: ['Polar Horizons'] });
    expect(why).toMatch(
      /^this password is too common or too easy to guess: it contains your name, your e-mail address, your company name or a word of our product\./,
    );
    expect(why).toMatch(/Choose another, e\.g\. several unrelated words\.$/);
    expect(why).not.toMatch(/capitali[sz]e|page related/i);
  });
});

describe('password hashing (NFKC)', () => {
  it('a password typed in another Unicode form logs in: hashed and compared as NFKC', async () => {
    const typed = 'ﬁnal-Ｃｈａｐｔｅｒ-of-92'; // ligature and full-width letters
    const hash = await hashPassword(typed);
    expect(await verifyPassword(hash, 'final-Chapter-of-92')).toBe(true);
    expect(await verifyPassword(hash, typed)).toBe(true);
    expect(await verifyPassword(hash, 'final-chapter-of-92')).toBe(false);
  });

  it('a hash made before normalization, from a non-NFKC password, still verifies with that password', async () => {
    const typed = 'ﬁnal-Ｃｈａｐｔｅｒ-of-92';
    const legacy = await argon2Hash(typed, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(legacy, typed)).toBe(true);
  });
});
