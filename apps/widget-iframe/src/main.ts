import { serviceDatabase } from '@expedition/db';
import { catalogSnapshot } from '@expedition/domain-pricing';
import { runService } from '@expedition/http-kit';
import { composeWidgetIframe } from './compose';
import { loadConfig } from './config';

runService({
  name: 'widget-iframe',
  loadConfig,
  database: (config) => serviceDatabase(config, { catalog: catalogSnapshot, mainDir: __dirname }),
  compose: (deps) => {
    const { config } = deps;
    const widget = composeWidgetIframe(deps);
    return {
      app: widget.app,
      log: {
        publicUrl: config.publicUrl,
        embedUrl: config.embedUrl,
        loaderDir: config.loaderDir,
        frameDir: config.frameDir,
        pinnedVersions: [...widget.releases.versions.keys()],
        refusedVersions: widget.releases.refused,
        paymentsProvider: config.payments.provider,
      },
    };
  },
});
