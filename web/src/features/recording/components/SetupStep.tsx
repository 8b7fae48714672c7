import { t } from '@lib/i18n';
import type { ReactNode } from 'react';
import type { useCapture } from '../hooks/useCapture';
import type { CaptureProblem, Source } from '../state/capture';
import { LevelMeter } from './LevelMeter';
import { ComposedPreview, LiveVideo } from './Preview';

type Capture = ReturnType<typeof useCapture>;

const SOURCES: { value: Source; label: () => string }[] = [
  { value: 'camera', label: () => t('recording.source.camera') },
  { value: 'screen', label: () => t('recording.source.screen') },
  { value: 'screenAndCamera', label: () => t('recording.source.screenAndCamera') },
];

/** Each problem said in words with what to do (literal keys, so the catalogue test sees them). */
export const problemText = (problem: CaptureProblem) =>
  ({
    noRecorder: t('recording.problem.noRecorder'),
    noScreenShare: t('recording.problem.noScreenShare'),
    cameraDenied: t('recording.problem.cameraDenied'),
    microphoneDenied: t('recording.problem.microphoneDenied'),
    cameraMissing: t('recording.problem.cameraMissing'),
    microphoneMissing: t('recording.problem.microphoneMissing'),
    deviceBusy: t('recording.problem.deviceBusy'),
    screenCancelled: t('recording.problem.screenCancelled'),
    insecure: t('recording.problem.insecure'),
  })[problem];

function DeviceSelect({
  label,
  value,
  onChange,
  devices,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  devices: MediaDeviceInfo[];
}) {
  return (
    <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
      {label}
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('recording.setup.defaultDevice')}</option>
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || t('recording.setup.deviceNumber', { number: index + 1 })}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Before recording: what to record, which camera and microphone, a live picture and the microphone's level. */
export function SetupStep({
  source,
  onSource,
  capture,
  footer,
}: {
  source: Source;
  onSource: (source: Source) => void;
  capture: Capture;
  footer: ReactNode;
}) {
  const wantsScreen = source !== 'camera';
  let preview: ReactNode;
  if (source === 'screenAndCamera' && capture.composition) {
    preview = <ComposedPreview canvas={capture.composition.canvas} bubble={capture.bubble} />;
  } else if (source === 'screen' && capture.screen) {
    preview = <LiveVideo stream={capture.screen} label={t('recording.setup.preview')} />;
  } else if (source === 'camera' && capture.camera) {
    preview = <LiveVideo stream={capture.camera} label={t('recording.setup.preview')} />;
  } else {
    preview = (
      <div className="flex aspect-video w-full items-center justify-center rounded-lg bg-slate-100 p-4 text-center text-sm text-slate-600">
        {/* A refusal is said below, in words; "waiting" would contradict it. */}
        {capture.problem
          ? null
          : wantsScreen && !capture.screen
            ? t('recording.setup.shareFirst')
            : t('recording.setup.waiting')}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-wrap gap-x-4">
        <legend className="mb-1 text-sm font-medium text-slate-700">{t('recording.source.legend')}</legend>
        {SOURCES.map((option) => (
          // At least 44 px tall: the whole line is the radio's tap target on a phone.
          <label key={option.value} className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
            <input
              type="radio"
              name="recording-source"
              value={option.value}
              checked={source === option.value}
              data-step-focus={source === option.value || undefined}
              onChange={() => onSource(option.value)}
              className="size-4 accent-indigo-600"
            />
            {option.label()}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row">
        <DeviceSelect
          label={t('recording.setup.microphone')}
          value={capture.microphoneId}
          onChange={capture.setMicrophoneId}
          devices={capture.devices.microphones}
        />
        {source !== 'screen' && (
          <DeviceSelect
            label={t('recording.setup.camera')}
            value={capture.cameraId}
            onChange={capture.setCameraId}
            devices={capture.devices.cameras}
          />
        )}
      </div>
      {wantsScreen && (
        <button type="button" className="btn btn-secondary self-start" onClick={() => void capture.shareScreen()}>
          {capture.screen ? t('recording.setup.shareAgain') : t('recording.setup.share')}
        </button>
      )}
      {preview}
      {source === 'screenAndCamera' && capture.composition && (
        <p className="text-xs text-slate-500">{t('recording.setup.bubbleHint')}</p>
      )}
      <LevelMeter stream={capture.microphone} />
      {capture.problem && (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {problemText(capture.problem)}
        </p>
      )}
      {footer}
    </div>
  );
}
