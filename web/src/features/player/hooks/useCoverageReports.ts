import type { CoverageJson } from '@contract/insight';
import { type RefObject, useEffect, useRef } from 'react';
import { PlayedRanges } from '../state/coverage';
import { beaconCoverage, type CoverageReport, queueCoverage, sendCoverage } from '../state/coverage-reports';

/** While playing, what was played is sent this often (the server caps each report by the time since the last). */
const COVERAGE_EVERY_MS = 15_000;

/**
 * Reports what the student really played of lecture `lectureId` (issue 33): ranges collected from the video's clock
 * while it plays (seeks and jumps never count), sent every 15 s while playing, on pause and end, and once more by
 * beacon when the page is hidden or left. Offline (a saved lecture) the reports wait on this device. Nothing is sent
 * without a lecture (the class's teacher, an administrator). Works the same for hls.js, native HLS and saved copies:
 * it only reads the <video>.
 */
export function useCoverageReports(
  videoRef: RefObject<HTMLVideoElement | null>,
  lectureId: string | undefined,
  onCoverage: ((coverage: CoverageJson) => void) | undefined,
) {
  const onCoverageRef = useRef(onCoverage);
  onCoverageRef.current = onCoverage;
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !lectureId) return;
    const played = new PlayedRanges();
    const playing = () => !video.paused && !video.ended && !video.seeking && video.readyState >= 3;
    const tick = () => played.tick(video.currentTime, playing(), video.playbackRate, performance.now());
    let lastSent = Date.now();
    const send = () => {
      const report = played.take();
      if (!report) return;
      lastSent = Date.now();
      void sendCoverage(lectureId, report).then((answer) => {
        if (answer) onCoverageRef.current?.(answer);
      });
    };
    const sendLast = (how: (id: string, report: CoverageReport) => void) => {
      const report = played.take();
      if (report) how(lectureId, report);
    };
    const onBreak = () => played.break();
    const onStop = () => {
      // The clock's last step before the pause or the end counts, then the range closes.
      played.tick(video.currentTime, !video.seeking, video.playbackRate, performance.now());
      played.break();
      send();
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') sendLast(beaconCoverage);
    };
    const onPageHide = () => sendLast(beaconCoverage);
    const timer = setInterval(() => {
      if (playing() && Date.now() - lastSent >= COVERAGE_EVERY_MS) send();
    }, 1000);
    // One signal takes every listener off again.
    const listening = new AbortController();
    const on = { signal: listening.signal };
    video.addEventListener('timeupdate', tick, on);
    video.addEventListener('playing', tick, on);
    for (const type of ['seeking', 'waiting', 'emptied']) video.addEventListener(type, onBreak, on);
    video.addEventListener('pause', onStop, on);
    video.addEventListener('ended', onStop, on);
    document.addEventListener('visibilitychange', onHidden, on);
    window.addEventListener('pagehide', onPageHide, on);
    return () => {
      clearInterval(timer);
      listening.abort();
      // Another lecture, or the page left inside the app: what this one played is sent as it goes.
      tick();
      sendLast((id, report) => (navigator.onLine ? void sendCoverage(id, report) : queueCoverage(id, report)));
    };
  }, [videoRef, lectureId]);
}
