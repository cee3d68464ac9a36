import type { Schemas } from '@videogen/openapi/types';
import type { Core } from '../core.js';
import { Paginated, type ListOptions } from '../pagination.js';

type VideoSetting = Schemas['VideoSetting'];

/** GET /video-settings/ (4.6). */
export class Settings {
  /** Settings seen in any list so far, by id: generate looks a setting's request_fields up here. */
  readonly #seen = new Map<string, VideoSetting>();
  constructor(private readonly core: Core) {}

  /** Every setting, page by page; await it for one page. */
  list({ page, ...o }: ListOptions = {}): Paginated<VideoSetting> {
    return new Paginated<VideoSetting>(
      (n) => {
        const p = this.core.get('/video-settings/', { query: { page: n } }, o);
        void p.then(
          (pg) => {
            if (Array.isArray(pg.results)) for (const s of pg.results) this.#seen.set(s.video_setting_id, s);
          },
          () => {},
        );
        return p;
      },
      { page },
    );
  }

  /** A setting by id, from the lists read so far, else read from the list (once per client). */
  async find(id: string, o: ListOptions = {}): Promise<VideoSetting | undefined> {
    if (!this.#seen.has(id)) for await (const s of this.list(o)) if (s.video_setting_id === id) break;
    return this.#seen.get(id);
  }
}
