// The seeded fixtures of the README: 7 video settings and 7 scenario videos per account, with fixed ids.
import type { Schemas } from '@videogen/openapi/types';
import type { Account } from './accounts.js';

export const MAGIC = {
  fail: '[sandbox:fail]',
  expire: '[sandbox:expire]',
  notConvertible: '[sandbox:not-convertible]',
  realAvatar: '[sandbox:real-avatar]',
  unknownError: '[sandbox:unknown-error]',
  voices: (languages: string[]) => `[sandbox:voices=${languages.join(',')}]`,
  language: (language: string) => `[sandbox:language=${language}]`,
  aspectRatio: (ratio: string) => `[sandbox:aspect-ratio=${ratio}]`,
} as const;

export const SETTING_MODES = [
  { n: 1, key: 'text', title: 'Explainer from a question', request_fields: ['text'] },
  { n: 2, key: 'pdf', title: 'Slides from a PDF', request_fields: ['pdf_file'] },
  { n: 3, key: 'pptx', title: 'Slides from a PPTX', request_fields: ['pptx_file'] },
  { n: 4, key: 'textPdf', title: 'Report from a PDF with instructions', request_fields: ['text', 'pdf_file'] },
  { n: 5, key: 'audio', title: 'Narrated audio', request_fields: ['audio_file'] },
  { n: 6, key: 'video', title: 'Video re-edit', request_fields: ['video_file'] },
  { n: 7, key: 'textImages', title: 'Illustrated explainer', request_fields: ['text', 'image_files'] },
] as const;

export const VIDEO_SCENARIOS = [
  {
    n: 1,
    key: 'convertible',
    status: 'completed',
    voices: 'all',
    convertible: true,
    realAvatar: false,
    unknownError: false,
    prompt: 'Explain photosynthesis to a ten-year-old in two minutes.',
  },
  {
    n: 2,
    key: 'limitedVoices',
    status: 'completed',
    voices: ['ja', 'en', 'ko'],
    convertible: true,
    realAvatar: false,
    unknownError: false,
    prompt: 'Quarterly results summary for the sales team.',
  },
  {
    n: 3,
    key: 'notConvertible',
    status: 'completed',
    voices: 'all',
    convertible: false,
    realAvatar: false,
    unknownError: false,
    prompt: 'Product launch teaser (no generated video data).',
  },
  {
    n: 4,
    key: 'realAvatar',
    status: 'completed',
    voices: 'all',
    convertible: false,
    realAvatar: true,
    unknownError: false,
    prompt: 'CEO new-year greeting with a real avatar.',
  },
  {
    n: 5,
    key: 'failed',
    status: 'failed',
    voices: 'all',
    convertible: false,
    realAvatar: false,
    unknownError: false,
    prompt: 'Onboarding walkthrough (failed).',
  },
  {
    n: 6,
    key: 'expired',
    status: 'expired',
    voices: 'all',
    convertible: false,
    realAvatar: false,
    unknownError: false,
    prompt: 'Safety training recap (expired).',
  },
  {
    n: 7,
    key: 'unknownError',
    status: 'completed',
    voices: 'all',
    convertible: true,
    realAvatar: false,
    unknownError: true,
    prompt: 'Conference keynote highlights.',
  },
] as const;

type SettingKey = (typeof SETTING_MODES)[number]['key'];
type VideoKey = (typeof VIDEO_SCENARIOS)[number]['key'];
export interface AccountFixtures {
  settings: Record<SettingKey, string>;
  videos: Record<VideoKey, string>;
}

export const fixtureId = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function fixturesOf(account: Pick<Account, 'settingPrefix' | 'videoPrefix'>): AccountFixtures {
  return {
    settings: Object.fromEntries(
      SETTING_MODES.map((m) => [m.key, fixtureId(account.settingPrefix, m.n)]),
    ) as AccountFixtures['settings'],
    videos: Object.fromEntries(
      VIDEO_SCENARIOS.map((v) => [v.key, fixtureId(account.videoPrefix, v.n)]),
    ) as AccountFixtures['videos'],
  };
}

export const FIXTURES = {
  acme: fixturesOf({ settingPrefix: '5e77a000', videoPrefix: '71de0a00' }),
  globex: fixturesOf({ settingPrefix: '5e77b000', videoPrefix: '71de0b00' }),
  initech: fixturesOf({ settingPrefix: '5e77c000', videoPrefix: '71de0c00' }),
  umbrella: fixturesOf({ settingPrefix: '5e77d000', videoPrefix: '71de0d00' }),
};

export type VideoSetting = Schemas['VideoSetting'];

export function seededSettings(account: Account): VideoSetting[] {
  return SETTING_MODES.map((m) => ({
    video_setting_id: fixtureId(account.settingPrefix, m.n),
    created_at: '2025-12-01T09:00:00Z',
    updated_at: `2025-12-${String(10 + m.n).padStart(2, '0')}T09:00:00Z`,
    title: m.title,
    request_fields: [...m.request_fields],
  }));
}
