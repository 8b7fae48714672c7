import { WebVTTParser } from 'webvtt-parser';
import type { MessageKey, MessageValues } from '../i18n/translate';

/** A good file, or what is wrong with it: a catalogue key and its values (the parser's own words stay English). */
export type CaptionFile = { vtt: string; cues: number } | { error: MessageKey; values?: MessageValues; line?: number };

const SRT_TIMING = /^(\s*\d{1,2}:\d{2}:\d{2}),(\d{3}\s*-->\s*\d{1,2}:\d{2}:\d{2}),(\d{3})/;

/**
 * A teacher's caption file as WebVTT, or the first thing wrong with it and its line. SRT (the other format
 * teachers have) is converted: commas in its timings become dots under a `WEBVTT` header. Both are then checked
 * by the W3C's WebVTT parser, whose line numbers are mapped back to the file the teacher sent.
 */
export function toWebVtt(text: string): CaptionFile {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const isVtt = /^WEBVTT(?:[ \t].*)?(?:\n|$)/.test(normalized);
  if (!isVtt && !normalized.includes('-->'))
    return { error: 'errors.captionsNotVttOrSrt', values: { line: 1 }, line: 1 };
  const headerLines = isVtt ? 0 : 2;
  const vtt = isVtt
    ? normalized
    : `WEBVTT\n\n${normalized
        .split('\n')
        .map((line) => line.replace(SRT_TIMING, '$1.$2.$3'))
        .join('\n')}`;
  const parsed = new WebVTTParser().parse(vtt, 'subtitles');
  const first = parsed.errors[0];
  if (first) {
    const line = Math.max(1, first.line - headerLines);
    return { error: 'errors.captionsAtLine', values: { line, detail: first.message }, line };
  }
  if (parsed.cues.length === 0) return { error: 'errors.captionsEmpty' };
  return { vtt: vtt.endsWith('\n') ? vtt : `${vtt}\n`, cues: parsed.cues.length };
}

/** The one-segment HLS playlist of a caption file, as the master playlist's subtitle rendition points to it. */
export function subtitlePlaylist(vttUrl: string, durationSeconds: number): string {
  const target = Math.max(1, Math.ceil(durationSeconds));
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${Math.max(durationSeconds, 0.001).toFixed(3)},`,
    vttUrl,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}
