// A video as the download resource and wait_for_video show it: its status, and when completed its
// temporary download address with the expiry the address states.
import type { Video } from '@videogen/client';
import { expiryOf } from './download-expiry.js';

export const downloadUri = (videoId: string) => `videogen://videos/${videoId}/download`;

export interface DownloadView {
  video_id: string;
  status: string;
  download_url: string;
  /** When the address was read (ISO 8601 UTC). */
  read_at: string;
  /** When the address expires, as it states it (ISO 8601 UTC), or null when it states none this server reads. */
  expires_at: string | null;
  copyright: unknown[];
  resource_uri: string;
}

export function downloadView(video: Video, readAt = Date.now()): DownloadView {
  const expires = video.status === 'completed' ? expiryOf(video.download_url) : undefined;
  return {
    video_id: video.video_id,
    status: video.status,
    download_url: video.download_url,
    read_at: new Date(readAt).toISOString(),
    expires_at: expires === undefined ? null : new Date(expires).toISOString(),
    copyright: video.copyright,
    resource_uri: downloadUri(video.video_id),
  };
}

/** One sentence on the address's lifetime. */
export function expiryPhrase(view: DownloadView): string {
  return view.expires_at
    ? `The address expires at ${view.expires_at} (as it states); read ${view.resource_uri} again for a fresh one.`
    : `The address is temporary (its expiry is not stated in it); read ${view.resource_uri} again for a fresh one.`;
}
