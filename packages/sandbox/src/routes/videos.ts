// GET /videos/ and GET /videos/{video_id}/.
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { ITEMS_PER_PAGE, pageFrom } from '../paging.js';
import type { OperationHandler } from '../spec-routes.js';
import { statusJson } from '../videos.js';

export function videoHandlers(ctx: Context): Record<string, OperationHandler> {
  return {
    listVideos: (request, _reply, params) => {
      const account = request.account!.name;
      const page = params.page as number;
      // Only the page is read from the store, whatever the number of videos.
      const total = ctx.store.count(account);
      const videos = ctx.store.page(account, (page - 1) * ITEMS_PER_PAGE, ITEMS_PER_PAGE, ctx.personality.oldestFirst);
      const items = videos.map((v) => ({
        video_id: v.video_id,
        created_at: new Date(v.created_at).toISOString(),
        prompt: v.prompt,
      }));
      return pageFrom(items, total, page);
    },
    getVideo: (request, _reply, params) => {
      const v = ctx.store.get(request.account!.name, params.video_id as string);
      if (!v) throw notFound(`Video ${params.video_id}`);
      return statusJson(ctx, v);
    },
  };
}
