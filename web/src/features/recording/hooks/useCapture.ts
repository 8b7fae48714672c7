import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CaptureError,
  type CaptureProblem,
  type Devices,
  listDevices,
  openCamera,
  openMicrophone,
  openScreen,
  recordingSupport,
  type Source,
  stopStream,
} from '../state/capture';
import { type BubblePlace, type Composition, composeScreenWithBubble, DEFAULT_BUBBLE } from '../state/compose';

/**
 * The camera, microphone and screen the recorder shows and records: opened for the chosen source and devices,
 * stopped when they change or the recorder closes. `stream()` is what the MediaRecorder records.
 */
export function useCapture(source: Source, active: boolean) {
  const [cameraId, setCameraId] = useState('');
  const [microphoneId, setMicrophoneId] = useState('');
  const [devices, setDevices] = useState<Devices>({ cameras: [], microphones: [] });
  const [camera, setCamera] = useState<MediaStream | null>(null);
  const [microphone, setMicrophone] = useState<MediaStream | null>(null);
  const [screen, setScreen] = useState<MediaStream | null>(null);
  const [composition, setComposition] = useState<Composition | null>(null);
  const [problem, setProblem] = useState<CaptureProblem | null>(null);
  /** Read by the composition on every frame: a drag shows at once, with no re-render. */
  const bubble = useRef<BubblePlace>(DEFAULT_BUBBLE);
  const wantsCamera = source !== 'screen';
  const wantsScreen = source !== 'camera';
  const support = active ? recordingSupport() : null;

  const fail = useCallback((error: unknown) => {
    setProblem(error instanceof CaptureError ? error.problem : 'deviceBusy');
  }, []);

  useEffect(() => {
    if (!active || support) return;
    let stream: MediaStream | null = null;
    let gone = false;
    openMicrophone(microphoneId)
      .then((opened) => {
        if (gone) return stopStream(opened);
        stream = opened;
        setMicrophone(opened);
        setProblem((now) => (now === 'microphoneDenied' || now === 'microphoneMissing' ? null : now));
        // Named only once the person allowed a device.
        void listDevices().then(setDevices, () => {});
      })
      .catch(fail);
    return () => {
      gone = true;
      stopStream(stream);
      setMicrophone(null);
    };
  }, [active, support, microphoneId, fail]);

  useEffect(() => {
    if (!active || support || !wantsCamera) return;
    let stream: MediaStream | null = null;
    let gone = false;
    openCamera(cameraId)
      .then((opened) => {
        if (gone) return stopStream(opened);
        stream = opened;
        setCamera(opened);
        setProblem((now) => (now === 'cameraDenied' || now === 'cameraMissing' || now === 'deviceBusy' ? null : now));
        void listDevices().then(setDevices, () => {});
      })
      .catch(fail);
    return () => {
      gone = true;
      stopStream(stream);
      setCamera(null);
    };
  }, [active, support, wantsCamera, cameraId, fail]);

  // The shared screen goes when the source no longer wants it or the recorder closes.
  useEffect(() => {
    if (active && wantsScreen) return;
    setScreen((now) => {
      stopStream(now);
      return null;
    });
  }, [active, wantsScreen]);

  /** Asks for the screen (the browser's own picker; it needs the click that calls this). */
  const shareScreen = useCallback(async () => {
    try {
      const opened = await openScreen();
      setScreen((now) => {
        stopStream(now);
        return opened;
      });
      setProblem(null);
    } catch (error) {
      fail(error);
    }
  }, [fail]);

  useEffect(() => {
    if (source !== 'screenAndCamera' || !screen || !camera || !microphone) return;
    let made: Composition | null = null;
    let gone = false;
    composeScreenWithBubble(screen, camera, microphone, () => bubble.current)
      .then((composed) => {
        if (gone) return composed.stop();
        made = composed;
        setComposition(composed);
      })
      .catch(fail);
    return () => {
      gone = true;
      made?.stop();
      setComposition(null);
    };
  }, [source, screen, camera, microphone, fail]);

  useEffect(
    () => () => {
      setScreen((now) => {
        stopStream(now);
        return null;
      });
    },
    [],
  );

  const stream = (): MediaStream | null => {
    const audio = microphone?.getAudioTracks() ?? [];
    if (audio.length === 0) return null;
    if (source === 'camera') return camera ? new MediaStream([...camera.getVideoTracks(), ...audio]) : null;
    if (source === 'screen') return screen ? new MediaStream([...screen.getVideoTracks(), ...audio]) : null;
    return composition?.stream ?? null;
  };

  return {
    devices,
    cameraId,
    setCameraId,
    microphoneId,
    setMicrophoneId,
    camera,
    microphone,
    screen,
    composition,
    bubble,
    problem: support ?? problem,
    shareScreen,
    stream,
    ready: stream() !== null,
  };
}
