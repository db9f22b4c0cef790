import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { runService } from '@expedition/http-kit';
import { composeQuoteApi } from './compose';
import { loadConfig } from './config';

runService({
  name: 'quote-api',
  loadConfig,
  database: (config) => serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname }),
  redis: true,
  compose: (deps) => ({
    app: composeQuoteApi(deps),
    log: { publicUrl: deps.config.publicUrl, redis: Boolean(deps.redis) },
  }),
});
