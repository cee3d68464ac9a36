// GET /video-settings/: the account's seeded settings.
import type { Context } from '../context.js';
import { seededSettings } from '../fixtures.js';
import { pageOf } from '../paging.js';
import type { OperationHandler } from '../spec-routes.js';

export function settingHandlers(_ctx: Context): Record<string, OperationHandler> {
  return {
    listVideoSettings: async (request, _reply, params) =>
      pageOf(seededSettings(request.account!), params.page as number),
  };
}
