import type { Command } from 'commander';
import type { VideoSetting } from '@videogen/client';
import { createContext, type Invocation } from '../context.js';
import { FIELD_FLAGS } from '../errors.js';
import { table } from '../output.js';

export function registerSettings(program: Command, invocation: Invocation): void {
  program
    .command('settings')
    .description('List the video settings of your account, with the input each one expects.')
    .action(async () => {
      const ctx = await createContext(invocation);
      const settings: VideoSetting[] = [];
      for await (const s of ctx.client.settings.list()) settings.push(s);
      ctx.out.result(settings, () =>
        settings.length
          ? table(
              ['VIDEO_SETTING_ID', 'INPUT', 'TITLE'],
              settings.map((s) => [
                s.video_setting_id,
                s.request_fields.map((f: string) => FIELD_FLAGS[f] ?? f).join(' '),
                s.title,
              ]),
            )
          : 'No video settings.',
      );
    });
}
