import type { LookupAddress } from 'node:dns';
import {
  BlockedAddressError,
  classifyAddress,
  classifyHostname,
  createGuardedLookup,
  refusedAddressClass,
  refusedHostname,
} from './outbound-address';

const PRODUCTION = { allowPrivateNetworks: false };
const DEVELOPMENT = { allowPrivateNetworks: true };

/** The host name a webhook URL ends up with: the WHATWG parser normalises the numeric IPv4 forms. */
const hostOf = (url: string) => new URL(url).hostname;

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'linkLocal'], // AWS, Azure and GCP metadata
    ['fd00:ec2::254', 'uniqueLocal'], // AWS metadata over IPv6
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fe80::1', 'linkLocal'],
    ['255.255.255.255', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1 (judged by the address it carries)
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped IPv6
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['[::ffff:a9fe:a9fe]', 'linkLocal'],
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('refuses to classify something that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
  });
});

describe('refusedHostname (the check when a webhook URL is set)', () => {
  it.each([
    ['http://169.254.169.254/latest/meta-data', 'a link-local address'],
    ['https://[fd00:ec2::254]/', 'a unique-local address'],
    ['https://10.0.0.1/hooks', 'a private address'],
    ['https://192.168.1.1/hooks', 'a private address'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'the cloud metadata service'],
    ['http://metadata.google.internal./', 'the cloud metadata service'],
    ['http://0.0.0.0:3001/', 'an unspecified address'],
    ['http://2130706433/', 'a loopback address'],
    ['http://0x7f000001/', 'a loopback address'],
    ['http://127.1/', 'a loopback address'],
    ['http://017700000001/', 'a loopback address'],
    ['http://[::ffff:127.0.0.1]:9464/metrics', 'a loopback address'],
    ['http://localhost:9464/metrics', 'a loopback address'],
    ['http://hooks.localhost/', 'a loopback address'],
  ])('refuses %s in production (%s)', (url, reason) => {
    expect(refusedHostname(hostOf(url), PRODUCTION)).toBe(reason);
  });

  it('allows loopback and private hosts in development, never link-local or the metadata names', () => {
    for (const url of ['http://localhost:4200/', 'http://127.1/', 'https://10.0.0.1/', 'https://[fd00::1]/']) {
      expect(refusedHostname(hostOf(url), DEVELOPMENT)).toBeNull();
    }
    expect(refusedHostname(hostOf('http://169.254.169.254/'), DEVELOPMENT)).toBe('a link-local address');
    expect(refusedHostname(hostOf('http://metadata.google.internal/'), DEVELOPMENT)).toBe('the cloud metadata service');
  });

  it('leaves public addresses and ordinary names to the delivery-time check', () => {
    expect(refusedHostname(hostOf('https://93.184.216.34/'), PRODUCTION)).toBeNull();
    expect(refusedHostname(hostOf('https://hooks.example.com/'), PRODUCTION)).toBeNull();
    expect(classifyHostname('hooks.example.com')).toBeNull();
  });
});

describe('refusedAddressClass', () => {
  it('allows only public addresses in production', () => {
    expect(refusedAddressClass('93.184.216.34', PRODUCTION)).toBeNull();
    expect(refusedAddressClass('127.0.0.1', PRODUCTION)).toBe('loopback');
    expect(refusedAddressClass('::ffff:192.168.1.1', PRODUCTION)).toBe('private');
  });

  it('adds loopback, private, unique-local and CGNAT in development', () => {
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', 'fd12::1', '100.64.1.1'])
      expect(refusedAddressClass(a, DEVELOPMENT)).toBeNull();
    for (const a of ['169.254.169.254', '0.0.0.0', '224.0.0.1'])
      expect(refusedAddressClass(a, DEVELOPMENT)).not.toBeNull();
  });
});

describe('createGuardedLookup (the socket-level check)', () => {
  function lookupWith(answers: Record<string, string[]>, policy = PRODUCTION) {
    return createGuardedLookup(policy, (hostname, _options, callback) => {
      const addresses: LookupAddress[] = (answers[hostname] ?? []).map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
      callback(null, addresses);
    });
  }

  const resolveAll = (lookup: ReturnType<typeof lookupWith>, hostname: string) =>
    new Promise<LookupAddress[]>((resolve, reject) =>
      lookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses as LookupAddress[]))),
    );

  it('refuses a name that resolves to 127.0.0.1 with a BlockedAddressError naming both', async () => {
    await expect(
      resolveAll(lookupWith({ 'rebind.example.com': ['127.0.0.1'] }), 'rebind.example.com'),
    ).rejects.toMatchObject({
      name: 'BlockedAddressError',
      code: 'ERR_BLOCKED_ADDRESS',
      message: 'rebind.example.com resolves to 127.0.0.1: loopback address refused',
    });
  });

  it('keeps only the public addresses of a name that resolves to both', async () => {
    const lookup = lookupWith({ 'mixed.example.com': ['10.0.0.1', '93.184.216.34', '::ffff:169.254.169.254'] });
    expect(await resolveAll(lookup, 'mixed.example.com')).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('answers the single-address form too', async () => {
    const lookup = lookupWith({ 'hooks.example.com': ['93.184.216.34'] });
    const one = await new Promise<string>((resolve, reject) =>
      lookup('hooks.example.com', {}, (err, address) => (err ? reject(err) : resolve(address as string))),
    );
    expect(one).toBe('93.184.216.34');
  });

  it('refuses the metadata names whatever they resolve to, even in development', async () => {
    const lookup = lookupWith({ 'metadata.google.internal': ['93.184.216.34'] }, DEVELOPMENT);
    await expect(resolveAll(lookup, 'metadata.google.internal')).rejects.toBeInstanceOf(BlockedAddressError);
  });
});

/**
 * IPv6 addresses that carry an IPv4 address are judged by the IPv4 address they carry: 127.0.0.1 (7f00:1),
 * 169.254.169.254 (a9fe:a9fe), 10.0.0.1 (a00:1) and the public 93.184.216.34 (5db8:d822) in each form. A Teredo
 * client's address is stored with every bit inverted: 127.0.0.1 as 80ff:fffe, 169.254.169.254 as 5601:5601.
 */
describe('IPv6 forms that carry an IPv4 address', () => {
  const CARRYING_REFUSED: [string, string, string][] = [
    ['IPv4-compatible', '::7f00:1', 'loopback'],
    ['IPv4-compatible', '::127.0.0.1', 'loopback'],
    ['IPv4-compatible', '::a9fe:a9fe', 'linkLocal'],
    ['IPv4-compatible', '::10.0.0.1', 'private'],
    ['IPv4-mapped', '::ffff:7f00:1', 'loopback'],
    ['IPv4-translated', '::ffff:0:7f00:1', 'loopback'],
    ['NAT64', '64:ff9b::7f00:1', 'loopback'],
    ['NAT64', '64:ff9b::169.254.169.254', 'linkLocal'],
    ['NAT64 local-use', '64:ff9b:1::a9fe:a9fe', 'reserved'],
    ['NAT64 local-use', '64:ff9b:1:7f00:1::', 'reserved'],
    ['6to4', '2002:7f00:1::', 'loopback'],
    ['6to4', '2002:a9fe:a9fe::1', 'linkLocal'],
    ['Teredo client', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['Teredo client', '2001:0:4136:e378::5601:5601', 'linkLocal'],
    ['Teredo server', '2001:0:a00:1::a247:27dd', 'private'],
  ];

  it.each(CARRYING_REFUSED)('%s %s is %s', (_form, address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
    expect(refusedAddressClass(address, PRODUCTION)).toBe(expected);
  });

  it.each([
    ['IPv4-mapped', '::ffff:5db8:d822', 'public'],
    ['IPv4-compatible', '::5db8:d822', 'reserved'],
    ['NAT64', '64:ff9b::5db8:d822', 'reserved'],
    ['6to4', '2002:5db8:d822::1', 'reserved'],
    ['Teredo', '2001:0:4136:e378::a247:27dd', 'reserved'],
    ['not a form: unspecified', '::', 'unspecified'],
    ['not a form: loopback', '::1', 'loopback'],
  ])('%s %s carrying a public IPv4 is %s (only IPv4-mapped is dialled as that address)', (_form, address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each(CARRYING_REFUSED)('refuses a webhook URL to %s [%s] (the check when it is set)', (_form, address) => {
    expect(refusedHostname(hostOf(`https://[${address}]/hooks`), PRODUCTION)).toMatch(/^an? [a-z -]+ address$/);
  });

  it('refuses http://[::127.0.0.1]/ as loopback: the URL parser writes it [::7f00:1]', () => {
    expect(hostOf('http://[::127.0.0.1]/')).toBe('[::7f00:1]');
    expect(refusedHostname(hostOf('http://[::127.0.0.1]/'), PRODUCTION)).toBe('a loopback address');
  });

  it('refuses the translated and tunnelled forms of a private address even in development, not the IPv4-mapped one', () => {
    for (const address of [
      '::7f00:1',
      '::ffff:0:7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2001:0:4136:e378::80ff:fffe',
    ]) {
      expect(refusedAddressClass(address, DEVELOPMENT)).toBe('loopback');
      expect(refusedHostname(`[${address}]`, DEVELOPMENT)).toBe('a loopback address');
    }
    expect(refusedAddressClass('::ffff:7f00:1', DEVELOPMENT)).toBeNull();
    expect(refusedHostname(hostOf('http://[::ffff:127.0.0.1]:4200/'), DEVELOPMENT)).toBeNull();
  });

  it('refuses at connect time a name that resolves to any of them', async () => {
    for (const [, address, expected] of CARRYING_REFUSED) {
      const lookup = createGuardedLookup(PRODUCTION, (_hostname, _options, callback) =>
        callback(null, [{ address, family: 6 }]),
      );
      const error = await new Promise((resolve) => lookup('aaaa.example.com', { all: true }, resolve));
      expect(error).toMatchObject({ name: 'BlockedAddressError', addressClass: expected });
    }
  });
});
