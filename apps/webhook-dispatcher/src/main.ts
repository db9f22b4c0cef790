import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { runService } from '@expedition/http-kit';
import { WebhookSecretKeysError } from '@expedition/operators';
import { composeWebhookDispatcher } from './compose';
import { loadConfig } from './config';

runService({
  name: 'webhook-dispatcher',
  loadConfig,
  configErrors: [WebhookSecretKeysError],
  database: (config) => serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname }),
  compose: (deps) => {
    const { config } = deps;
    const { app, workers } = composeWebhookDispatcher(deps);
    return {
      app,
      start: () => workers.start(),
      stop: () => workers.stop(),
      log: {
        provider: config.payments.provider,
        workers: config.delivery.workers,
        retryDelaysMs: config.delivery.retryDelaysMs,
      },
    };
  },
});
