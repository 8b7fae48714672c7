import type { MessageKey, MessageValues } from '../i18n/translate';
import { probe, type Tools } from './ffmpeg';

export const MAX_DURATION_SECONDS = 6 * 60 * 60;
export const MAX_SIDE = 4096;

export type SourceInfo = {
  durationMs: number;
  /** Display size, after any rotation a phone recorded. */
  width: number;
  height: number;
  fps: number;
  hasAudio: boolean;
};

const parseRate = (rate: string | undefined) => {
  const [num, den] = (rate ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
};

/** What ffprobe sees in an upload, or the plain reason it cannot be used. */
export async function describeSource(
  tools: Tools,
  file: string,
): Promise<SourceInfo | { refused: MessageKey; values?: MessageValues }> {
  const info = await probe(tools, file);
  const notVideo = { refused: 'errors.notAVideo' as const };
  if (!info) return notVideo;
  const video = info.streams.find(
    (stream) => stream.codec_type === 'video' && stream.codec_name !== 'mjpeg' && stream.codec_name !== 'png',
  );
  if (!video?.width || !video.height) return notVideo;
  const duration = Number(info.format.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) return notVideo;
  if (duration > MAX_DURATION_SECONDS) return { refused: 'errors.videoTooLong' as const };
  if (video.width > MAX_SIDE || video.height > MAX_SIDE) {
    return { refused: 'errors.videoTooWide' as const, values: { side: MAX_SIDE } };
  }
  const rotation = Math.abs(
    Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0),
  );
  const turned = rotation === 90 || rotation === 270;
  const fps = parseRate(video.avg_frame_rate) || parseRate(video.r_frame_rate) || 30;
  return {
    durationMs: Math.round(duration * 1000),
    width: turned ? video.height : video.width,
    height: turned ? video.width : video.height,
    fps,
    hasAudio: info.streams.some((stream) => stream.codec_type === 'audio'),
  };
}
