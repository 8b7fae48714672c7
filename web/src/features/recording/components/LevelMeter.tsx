import { t } from '@lib/i18n';
import { useEffect, useId, useState } from 'react';

/** The microphone's loudness now (0 to 1), so a teacher sees it hears them before recording. */
export function LevelMeter({ stream }: { stream: MediaStream | null }) {
  const [level, setLevel] = useState(0);
  const id = useId();
  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0 || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    const read = () => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += ((sample - 128) / 128) ** 2;
      // RMS, stretched so speech fills most of the bar.
      setLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
      frame = requestAnimationFrame(read);
    };
    read();
    return () => {
      cancelAnimationFrame(frame);
      void context.close();
    };
  }, [stream]);
  return (
    <div className="flex items-center gap-2 text-sm text-slate-700">
      <label htmlFor={id}>{t('recording.setup.level')}</label>
      <meter id={id} className="h-3 min-w-0 flex-1" min={0} max={1} low={0.1} high={0.9} optimum={0.5} value={level} />
    </div>
  );
}
