import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { runService } from '@expedition/http-kit';
import { composeEmbedApi } from './compose';
import { loadConfig } from './config';

runService({
  name: 'embed-api',
  loadConfig,
  database: (config) => serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname }),
  redis: true,
  compose: (deps) => {
    const { config } = deps;
    const embed = composeEmbedApi(deps);
    return {
      app: embed.app,
      start: () => embed.optionsWorker.start(),
      async stop() {
        await embed.optionsWorker.stop();
        await embed.keyUsage.flush();
      },
      log: {
        publicUrl: config.publicUrl,
        redis: Boolean(deps.redis),
        firstPartyOrigins: config.firstPartyOrigins,
        testDashboardOrigins: config.testDashboardOrigins,
        keyCacheTtlMs: config.keyCacheTtlMs,
        paymentsProvider: config.payments.provider,
      },
    };
  },
});
