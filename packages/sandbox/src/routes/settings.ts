// GET /video-settings/: the account's seeded settings.
import type { Context } from '../context.js';
import { seededSettings } from '../fixtures.js';
import { pageOf } from '../paging.js';
import type { OperationHandlers } from '../spec-routes.js';

export function settingHandlers(_ctx: Context): Pick<OperationHandlers, 'listVideoSettings'> {
  return {
    listVideoSettings: async ({ account, query: { page } }) => pageOf(seededSettings(account), page),
  };
}
