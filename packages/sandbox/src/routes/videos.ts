// GET /videos/ and GET /videos/{video_id}/.
import type { Context } from '../context.js';
import { refusal } from '../errors.js';
import { ITEMS_PER_PAGE, pageFrom } from '../paging.js';
import type { OperationHandlers } from '../spec-routes.js';
import { statusJson } from '../videos.js';

export function videoHandlers(ctx: Context): Pick<OperationHandlers, 'listVideos' | 'getVideo'> {
  return {
    listVideos: ({ account, query: { page } }) => {
      // Only the page is read from the store, whatever the number of videos.
      const total = ctx.store.count(account.name);
      const videos = ctx.store.page(
        account.name,
        (page - 1) * ITEMS_PER_PAGE,
        ITEMS_PER_PAGE,
        ctx.twin.videosOldestFirst,
      );
      const items = videos.map((v) => ({
        video_id: v.video_id,
        created_at: new Date(v.created_at).toISOString(),
        prompt: v.prompt,
      }));
      return pageFrom(items, total, page);
    },
    getVideo: ({ account, path: { video_id } }) => {
      const v = ctx.store.get(account.name, video_id);
      if (!v) throw refusal('unknown_id', `Video ${video_id} was not found.`);
      return statusJson(ctx, v);
    },
  };
}
