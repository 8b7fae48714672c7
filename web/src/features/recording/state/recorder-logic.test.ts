import { expect, test } from 'bun:test';
import { fileNameOf, problemOf, recordingType } from './capture';
import { clampBubble, DEFAULT_BUBBLE, nudgeBubble } from './compose';
import { checkLimits, LOW_ROOM_BYTES, STOP_ROOM_BYTES } from './limits';
import { RecordingClock } from './recording-session';
import { uploadProblem } from './recording-upload';
import { clockOf, trimProblem, trimToSend } from './trim';

const failure = (name: string) => Object.assign(new Error(name), { name });

test('each refusal of a device is told apart, so the words say what to do', () => {
  expect(problemOf(failure('NotAllowedError'), 'camera')).toBe('cameraDenied');
  expect(problemOf(failure('NotAllowedError'), 'microphone')).toBe('microphoneDenied');
  expect(problemOf(failure('NotFoundError'), 'camera')).toBe('cameraMissing');
  expect(problemOf(failure('OverconstrainedError'), 'microphone')).toBe('microphoneMissing');
  expect(problemOf(failure('NotReadableError'), 'camera')).toBe('deviceBusy');
  expect(problemOf(failure('NotAllowedError'), 'screen')).toBe('screenCancelled');
  expect(problemOf(failure('NotSupportedError'), 'screen')).toBe('noScreenShare');
});

test('the recording type: WebM where the browser writes it, MP4 on Safari, none without MediaRecorder', () => {
  expect(recordingType((type) => type.startsWith('video/webm'))).toBe('video/webm;codecs=vp8,opus');
  const safari = recordingType((type) => type.startsWith('video/mp4'));
  expect(safari).toBe('video/mp4;codecs=avc1,mp4a.40.2');
  expect(fileNameOf(safari ?? '')).toBe('recording.mp4');
  expect(fileNameOf('video/webm;codecs=vp8,opus')).toBe('recording.webm');
  expect(recordingType(() => false)).toBeNull();
  expect(recordingType(undefined)).toBeNull();
});

test('the camera bubble moves by the arrow keys and never leaves the picture', () => {
  const moved = nudgeBubble(DEFAULT_BUBBLE, 'ArrowLeft', 1280, 720);
  expect(moved?.x).toBeCloseTo(DEFAULT_BUBBLE.x - 0.05);
  expect(nudgeBubble(DEFAULT_BUBBLE, 'Enter', 1280, 720)).toBeNull();
  const cornered = clampBubble({ x: 2, y: -1, size: 0.3 }, 1280, 720);
  // Its radius is 0.15 of the height, 0.084 of the width: the centre stays that far from the edges.
  expect(cornered.y).toBeCloseTo(0.15);
  expect(cornered.x).toBeCloseTo(1 - (0.3 * 720) / 2 / 1280);
});

test('the limits: a warning a minute before the time limit, a stop at it; the server cap and free room too', () => {
  const limits = { maxRecordingMinutes: 10, maxUploadBytes: 1_000_000 };
  expect(checkLimits(limits, 8 * 60_000, 0, null)).toEqual({ stop: null, warn: null });
  expect(checkLimits(limits, 9 * 60_000 + 1, 0, null)).toEqual({ stop: null, warn: 'time' });
  expect(checkLimits(limits, 10 * 60_000, 0, null)).toEqual({ stop: 'time', warn: null });
  expect(checkLimits(limits, 0, 950_000, null)).toEqual({ stop: null, warn: 'size' });
  expect(checkLimits(limits, 0, 990_000, null)).toEqual({ stop: 'size', warn: null });
  expect(checkLimits(limits, 0, 0, LOW_ROOM_BYTES - 1)).toEqual({ stop: null, warn: 'room' });
  expect(checkLimits(limits, 0, 0, STOP_ROOM_BYTES - 1)).toEqual({ stop: 'room', warn: null });
});

test('the recorder clock leaves pauses out', () => {
  let now = 0;
  const clock = new RecordingClock(() => now);
  clock.start();
  now = 5_000;
  clock.pause();
  now = 9_000;
  expect(clock.elapsedMs).toBe(5_000);
  clock.start();
  now = 12_000;
  expect(clock.elapsedMs).toBe(8_000);
  expect(clockOf(clock.elapsedMs)).toBe('0:08');
  expect(clockOf(3_725_000)).toBe('1:02:05');
});

test('a trim is checked as the server checks it, and the whole length sends none', () => {
  expect(trimProblem({ start: 0, end: 20 }, 20)).toBeNull();
  expect(trimProblem({ start: 5, end: 5 }, 20)).toBe('order');
  expect(trimProblem({ start: 5, end: 5.5 }, 20)).toBe('tooShort');
  expect(trimProblem({ start: -1, end: 10 }, 20)).toBe('range');
  expect(trimProblem({ start: 0, end: 22 }, 20)).toBe('range');
  expect(trimProblem({ start: Number.NaN, end: 10 }, 20)).toBe('range');
  expect(trimToSend({ start: 0, end: 20 }, 20)).toBeNull();
  expect(trimToSend({ start: 2, end: 20 }, 20)).toEqual({ start: 2, end: 20 });
});

const refusal = (status: number, body: unknown) =>
  Object.assign(new Error('tus: unexpected response'), {
    originalResponse: { getStatus: () => status, getBody: () => JSON.stringify(body) },
  }) as unknown as Parameters<typeof uploadProblem>[0];

test("the server's refusals (too long, too large, disk full) are said in its words and not retried", () => {
  const tooLong = uploadProblem(
    refusal(413, { code: 'recording_too_long', message: 'This recording is longer than 120 minutes.' }),
  );
  expect(tooLong).toEqual({ message: 'This recording is longer than 120 minutes.', final: true });
  const full = uploadProblem(refusal(507, { code: 'disk_full', message: 'The server has no room left.' }));
  expect(full).toEqual({ message: 'The server has no room left.', final: true });
  // A lock or a conflict passes: tus tries again from the server's offset.
  expect(uploadProblem(refusal(409, { message: 'Offset mismatch.' })).final).toBe(false);
  expect(uploadProblem(new Error('network')).final).toBe(false);
});
