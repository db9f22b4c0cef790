import { ConfigError } from '@expedition/http-kit';
import { loadConfig } from './config';

describe('embed-api config', () => {
  it('defaults to the operating contract ports and the widget/portal origins', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3002,
      publicUrl: 'http://localhost:3002',
      firstPartyOrigins: ['http://localhost:3003'],
      testDashboardOrigins: ['http://localhost:3004'],
      keyCacheTtlMs: 5_000,
    });
  });

  it('derives origins from WIDGET_URL / PORTAL_URL and appends the extra lists, normalized', () => {
    const config = loadConfig({
      WIDGET_URL: 'https://Widget.Example.com:443/embed/',
      PORTAL_URL: 'https://portal.example.com/app',
      EMBED_FIRST_PARTY_ORIGINS: 'https://cdn.example.com, https://widget.example.com',
      EMBED_TEST_DASHBOARD_ORIGINS: 'https://staging-portal.example.com',
      EMBED_KEY_CACHE_TTL_MS: '2000',
    });
    expect(config.firstPartyOrigins).toEqual(['https://widget.example.com', 'https://cdn.example.com']);
    expect(config.testDashboardOrigins).toEqual(['https://portal.example.com', 'https://staging-portal.example.com']);
    expect(config.keyCacheTtlMs).toBe(2_000);
  });

  it('refuses an entry that is not an origin', () => {
    expect(() => loadConfig({ EMBED_FIRST_PARTY_ORIGINS: 'https://ok.example, https://bad.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ EMBED_KEY_CACHE_TTL_MS: 'soon' })).toThrow(ConfigError);
  });
});
