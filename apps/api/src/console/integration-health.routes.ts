import { Router } from 'express';
import { getIntegrationHealth } from '@brand/core';
import { sendPage } from '../browser/html-page';
import { ConsoleKit } from './console-context';
import { INTEGRATION_HEALTH_PATH, integrationHealthPage } from './integration-health.pages';

/** The integration health page (DESIGN §17): the logged-in user's brand's apps, exports and webhook endpoints. */
export function integrationHealthRoutes(kit: ConsoleKit, router: Router): void {
  router.get(
    INTEGRATION_HEALTH_PATH,
    ...kit.page(async (_req, res, { user, csrfToken }) => {
      const health = await getIntegrationHealth(kit.deps, { brandId: user.brandId });
      sendPage(res, 200, integrationHealthPage({ user, csrfToken, health }));
    }),
  );
}
