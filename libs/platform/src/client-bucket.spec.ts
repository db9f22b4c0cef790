import { clientBucket } from './client-bucket';

describe('clientBucket', () => {
  it('keeps an IPv4 address as it is, and maps an IPv4-mapped IPv6 address to its IPv4', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 in one bucket, and another /64 in another', () => {
    const a = clientBucket('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(a);
    expect(clientBucket('[2001:db8:1:2:abcd::9]')).toBe(a);
    expect(clientBucket('2001:db8:1:3::1')).not.toBe(a);
    expect(clientBucket('::1')).toBe('::/64');
  });

  it('never throws on junk', () => {
    expect(clientBucket(undefined)).toBe('unknown');
    expect(clientBucket('')).toBe('unknown');
    expect(clientBucket('not-an-ip')).toBe('not-an-ip');
  });
});
