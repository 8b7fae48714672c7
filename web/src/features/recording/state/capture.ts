/** Cameras, microphones and the screen: asking for them, and what to say when the browser or the person says no. */

export type Source = 'camera' | 'screen' | 'screenAndCamera';

/** Why a source could not start, each said in words with what to do (see `captureProblemKey`). */
export type CaptureProblem =
  | 'noRecorder'
  | 'noScreenShare'
  | 'cameraDenied'
  | 'microphoneDenied'
  | 'cameraMissing'
  | 'microphoneMissing'
  | 'deviceBusy'
  | 'screenCancelled'
  | 'insecure';

export class CaptureError extends Error {
  constructor(readonly problem: CaptureProblem) {
    super(problem);
  }
}

/** Cheapest first: VP8 keeps a teacher's laptop cool while it also draws the screen; Safari records MP4. */
const RECORDING_TYPES = [
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm',
  'video/mp4;codecs=avc1,mp4a.40.2',
  'video/mp4',
];

/** The first type this browser's MediaRecorder can write; null when it has none (or no MediaRecorder). */
export function recordingType(isTypeSupported: ((type: string) => boolean) | undefined): string | null {
  if (!isTypeSupported) return null;
  return RECORDING_TYPES.find((type) => isTypeSupported(type)) ?? null;
}

/** What the file is called on the server (the server reads its container from the extension). */
export const fileNameOf = (mimeType: string) => (mimeType.startsWith('video/mp4') ? 'recording.mp4' : 'recording.webm');

/** Which problem a failed getUserMedia/getDisplayMedia is, from the DOMException's name and what was asked. */
export function problemOf(error: unknown, asked: 'camera' | 'microphone' | 'screen'): CaptureProblem {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (asked === 'screen') {
    // A closed picker and a refused one look alike (NotAllowedError): both mean "share again".
    if (name === 'NotAllowedError' || name === 'AbortError') return 'screenCancelled';
    return name === 'NotSupportedError' || name === 'TypeError' ? 'noScreenShare' : 'screenCancelled';
  }
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return asked === 'camera' ? 'cameraDenied' : 'microphoneDenied';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return asked === 'camera' ? 'cameraMissing' : 'microphoneMissing';
  }
  if (name === 'NotReadableError' || name === 'AbortError') return 'deviceBusy';
  return asked === 'camera' ? 'cameraDenied' : 'microphoneDenied';
}

/** Whether this browser can record at all: a secure page, media devices and a MediaRecorder with a known type. */
export function recordingSupport(): CaptureProblem | null {
  if (typeof window === 'undefined' || !window.isSecureContext) return 'insecure';
  if (!navigator.mediaDevices?.getUserMedia) return 'insecure';
  if (typeof MediaRecorder === 'undefined' || !recordingType(MediaRecorder.isTypeSupported)) return 'noRecorder';
  return null;
}

/** The microphone, asked on its own so a refused camera and a refused microphone are told apart. */
export async function openMicrophone(deviceId: string): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: deviceId ? { deviceId: { exact: deviceId }, echoCancellation: true } : { echoCancellation: true },
    });
  } catch (error) {
    throw new CaptureError(problemOf(error, 'microphone'));
  }
}

export async function openCamera(deviceId: string): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia({
      video: deviceId ? { deviceId: { exact: deviceId }, width: 1280, height: 720 } : { width: 1280, height: 720 },
    });
  } catch (error) {
    throw new CaptureError(problemOf(error, 'camera'));
  }
}

export async function openScreen(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getDisplayMedia) throw new CaptureError('noScreenShare');
  try {
    return await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: 30 }, audio: false });
  } catch (error) {
    throw new CaptureError(problemOf(error, 'screen'));
  }
}

export type Devices = { cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] };

/** The cameras and microphones (named once the person has allowed one of them). */
export async function listDevices(): Promise<Devices> {
  const all = await navigator.mediaDevices.enumerateDevices();
  return {
    cameras: all.filter((device) => device.kind === 'videoinput' && device.deviceId),
    microphones: all.filter((device) => device.kind === 'audioinput' && device.deviceId),
  };
}

export const stopStream = (stream: MediaStream | null | undefined) => {
  for (const track of stream?.getTracks() ?? []) track.stop();
};
