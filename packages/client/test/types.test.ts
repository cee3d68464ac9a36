// Types a user sees (checked by tsc in `npm test`; the runtime part only keeps vitest happy).
import { expectTypeOf, it } from 'vitest';
import type {
  AspectRatio,
  ConversionOptions,
  ErrorCode,
  Language,
  Video,
  VideoClient,
  VideoListItem,
  VideoSetting,
  components,
  paths,
} from '../src/index.js';
import { VideoApiError, ValidationError } from '../src/index.js';

it('derives the public types from the spec', () => {
  expectTypeOf<Video>().toEqualTypeOf<components['schemas']['Video']>();
  expectTypeOf<Language>().toEqualTypeOf<components['schemas']['Language']>();
  expectTypeOf<'ja'>().toExtend<Language>();
  expectTypeOf<'16:9'>().toExtend<AspectRatio>();
  expectTypeOf<'CONVERT_NO_CHANGE'>().toExtend<ErrorCode>();
  expectTypeOf<'SOMETHING_NEW'>().toExtend<ErrorCode>();
  expectTypeOf<VideoClient['videos']['get']>().returns.resolves.toEqualTypeOf<Video>();
  expectTypeOf<VideoClient['conversions']['get']>().returns.resolves.toEqualTypeOf<ConversionOptions>();
  expectTypeOf<VideoClient['videos']['list']>().returns.toExtend<AsyncIterable<VideoListItem>>();
  expectTypeOf<VideoClient['settings']['list']>().returns.toExtend<AsyncIterable<VideoSetting>>();
  expectTypeOf<components['schemas']['GenerateVideoRequest']['pdf_file']>().toEqualTypeOf<Blob | undefined>();
  expectTypeOf<keyof paths>().toEqualTypeOf<
    '/videos/generate/' | '/videos/' | '/videos/{video_id}/' | '/videos/{video_id}/conversions/' | '/video-settings/'
  >();
  expectTypeOf<InstanceType<typeof ValidationError>>().toExtend<VideoApiError>();
  expectTypeOf<InstanceType<typeof ValidationError>['kind']>().toEqualTypeOf<'validation'>();
});
