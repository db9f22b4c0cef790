import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { runService } from '@expedition/http-kit';
import { composePortal } from './compose';
import { loadConfig } from './config';

runService({
  name: 'operator-portal',
  loadConfig,
  database: (config) => serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname }),
  redis: true,
  compose: (deps) => {
    const { config, logger } = deps;
    const portal = composePortal(deps);
    if (!config.urls.portal.startsWith('https://') && config.production) {
      logger.warn('PORTAL_URL is not https: session cookies are sent without Secure');
    }
    return {
      app: portal.app,
      log: { publicUrl: config.urls.portal, mail: portal.mailer.kind, outbox: portal.outboxDir, ui: portal.uiDir },
    };
  },
});
