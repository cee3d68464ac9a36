// A video's state is computed from timestamps at read time rather than moved by timers: nothing to
// cancel on close, nothing lost on restart, and an injected clock drives it exactly.
import type { VideoStatus } from '@videogen/openapi/rules';
import type { Schemas } from '@videogen/openapi/types';
export type { VideoStatus };

export interface VideoRecord {
  video_id: string;
  account: string;
  /** Creation time, epoch ms. */
  created_at: number;
  prompt: string;
  /** Seeded videos have a fixed status and never change. */
  fixed_status?: VideoStatus;
  /** When the generation ends (epoch ms) and how. */
  finishes_at: number;
  outcome: 'completed' | 'failed';
  /** When a completed video becomes expired (epoch ms); null = never. */
  expires_at: number | null;
  language: string;
  aspect_ratio: string;
  /** Languages the video's voices support; 'all' = every language of the document. */
  voices: string[] | 'all';
  /** Has generated video data (false ⇒ not convertible). */
  has_video_data: boolean;
  real_avatar: boolean;
  /** Conversions of this video answer 500 UNKNOWN_ERROR (seeded scenario 7). */
  unknown_error_on_convert?: boolean;
  copyright: string[];
  source_video_id?: string;
}

export function statusAt(video: VideoRecord, now: number): VideoStatus {
  if (video.fixed_status) return video.fixed_status;
  if (now < video.finishes_at) return 'running';
  if (video.outcome === 'failed') return 'failed';
  if (video.expires_at !== null && now >= video.expires_at) return 'expired';
  return 'completed';
}

export const COPYRIGHT = [
  'Background music: "Morning Light" by Sandbox Audio (royalty-free)',
  'Stock footage: Sandbox Media Library, licensed for generated videos',
];

export type ConversionOptions = Schemas['ConversionOptions'];
type Language = Schemas['Language'];
type AspectRatio = Schemas['AspectRatio'];

/** Interface 2.4: languages come from the voices (minus the current one); all ratios when convertible. */
export function conversionOptions(
  video: VideoRecord,
  now: number,
  languages: readonly Language[],
  aspectRatios: readonly AspectRatio[],
): ConversionOptions {
  const convertible = statusAt(video, now) === 'completed' && video.has_video_data && !video.real_avatar;
  const { voices: spoken } = video;
  const voices = spoken === 'all' ? languages : languages.filter((l) => spoken.includes(l));
  return {
    is_convertible: convertible,
    current_language: video.language,
    available_languages: convertible ? voices.filter((l) => l !== video.language) : [],
    current_aspect_ratio: video.aspect_ratio,
    available_aspect_ratios: convertible ? [...aspectRatios] : [],
  };
}
