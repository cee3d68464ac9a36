// GET /videos/ and GET /videos/{video_id}/.
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { pageOf } from '../paging.js';
import type { OperationHandler } from '../spec-routes.js';
import { statusView } from '../videos.js';

export function videoHandlers(ctx: Context): Record<string, OperationHandler> {
  return {
    listVideos: async (request, _reply, params) => {
      const videos = ctx.store.list(request.account!.name);
      if (ctx.personality.oldestFirst) videos.reverse();
      const items = videos.map((v) => ({
        video_id: v.video_id,
        created_at: new Date(v.created_at).toISOString(),
        prompt: v.prompt,
      }));
      return pageOf(items, params.page as number);
    },
    getVideo: async (request, _reply, params) => {
      const v = ctx.store.get(request.account!.name, params.video_id as string);
      if (!v) throw notFound(`Video ${params.video_id}`);
      return statusView(ctx, v);
    },
  };
}
