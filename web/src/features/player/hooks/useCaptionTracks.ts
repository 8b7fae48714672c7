import { type Dispatch, type RefObject, useEffect } from 'react';
import type { PlayerAction } from '../state/player-state';
import type { AppleVideo } from './usePlayerCommands';

/** A cue's text without its WebVTT tags (<i>, <b>, <v Speaker>), as plain lines. */
export const cueText = (cue: TextTrackCue) =>
  ((cue as VTTCue).text ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0');

/**
 * Captions: the chosen language's track is "hidden" (its cues fire, the browser draws nothing) and its cues go to
 * the player, which draws them above its controls, in its own full screen too; when the <video> is shown alone
 * (its own full screen, an iPhone's only one, or picture in picture) the track is "showing" and the engine draws
 * it. Every other track is off. Native HLS players list the master playlist's subtitle renditions as tracks of the
 * same language, so the first match wins.
 */
export function useCaptionTracks(
  videoRef: RefObject<HTMLVideoElement | null>,
  language: string | null,
  videoAlone: boolean,
  dispatch: Dispatch<PlayerAction>,
) {
  useEffect(() => {
    const video = videoRef.current as AppleVideo | null;
    if (!video) return;
    const check = () => {
      const fullscreenElement =
        document.fullscreenElement ??
        (document as { webkitFullscreenElement?: Element | null }).webkitFullscreenElement;
      dispatch({
        type: 'video-alone',
        alone:
          fullscreenElement === video ||
          !!video.webkitDisplayingFullscreen ||
          document.pictureInPictureElement === video ||
          video.webkitPresentationMode === 'fullscreen' ||
          video.webkitPresentationMode === 'picture-in-picture',
      });
    };
    const videoEvents = [
      'webkitbeginfullscreen',
      'webkitendfullscreen',
      'webkitpresentationmodechanged',
      'enterpictureinpicture',
      'leavepictureinpicture',
    ];
    for (const name of videoEvents) video.addEventListener(name, check);
    document.addEventListener('fullscreenchange', check);
    document.addEventListener('webkitfullscreenchange', check);
    return () => {
      for (const name of videoEvents) video.removeEventListener(name, check);
      document.removeEventListener('fullscreenchange', check);
      document.removeEventListener('webkitfullscreenchange', check);
    };
  }, [videoRef, dispatch]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const apply = () => {
      let chosen: TextTrack | undefined;
      for (const track of Array.from(video.textTracks)) {
        if (track.kind !== 'subtitles' && track.kind !== 'captions') continue;
        const wanted = !chosen && language !== null && track.language === language;
        if (wanted) chosen = track;
        track.mode = wanted ? (videoAlone ? 'showing' : 'hidden') : 'disabled';
      }
      const show = () => dispatch({ type: 'cues', lines: Array.from(chosen?.activeCues ?? []).map(cueText) });
      chosen?.addEventListener('cuechange', show);
      show();
      return () => chosen?.removeEventListener('cuechange', show);
    };
    let undo = apply();
    const reapply = () => {
      undo();
      undo = apply();
    };
    video.textTracks.addEventListener('addtrack', reapply);
    return () => {
      undo();
      video.textTracks.removeEventListener('addtrack', reapply);
    };
  }, [videoRef, language, videoAlone, dispatch]);
}
