import { ChunkSource } from './chunk-source';
import type { RecordingStore, StoredRecording } from './recording-store';

/** Each chunk the recorder hands over: short, so a crash loses at most these few seconds. */
export const CHUNK_MS = 4000;

/** The recorded time, pauses left out: WebM from MediaRecorder has no duration, so this clock is the length. */
export class RecordingClock {
  private runningSince: number | null = null;
  private banked = 0;
  constructor(private readonly now: () => number = () => performance.now()) {}
  start() {
    if (this.runningSince === null) this.runningSince = this.now();
  }
  pause() {
    if (this.runningSince === null) return;
    this.banked += this.now() - this.runningSince;
    this.runningSince = null;
  }
  get elapsedMs() {
    return this.banked + (this.runningSince === null ? 0 : this.now() - this.runningSince);
  }
}

export type SessionEvents = {
  /** A chunk is in the store (its size); the upload can send it. */
  onChunk?: (bytes: number) => void;
  /** A chunk could not be kept (the browser's storage is full): said at once, the recording stops. */
  onStoreFailed?: (error: unknown) => void;
};

/**
 * One recording: MediaRecorder writes a chunk every CHUNK_MS, each goes to the store first (in order), then to the
 * chunk source the upload reads. The recording's row is written at the start and with every chunk.
 */
export class RecordingSession {
  readonly source: ChunkSource;
  readonly clock = new RecordingClock();
  private recorder: MediaRecorder | null = null;
  private writes: Promise<void> = Promise.resolve();
  private failed = false;
  private seq = 0;

  constructor(
    private readonly store: RecordingStore,
    readonly recording: StoredRecording,
    private readonly events: SessionEvents = {},
  ) {
    this.source = new ChunkSource(store, recording.id);
  }

  async start(stream: MediaStream) {
    await this.store.put(this.recording);
    // 1.6 Mbit/s in all: a school's 2 Mbit/s uplink keeps up while recording (bench:record), and slides stay sharp.
    const recorder = new MediaRecorder(stream, {
      mimeType: this.recording.mimeType,
      videoBitsPerSecond: 1_500_000,
      audioBitsPerSecond: 96_000,
    });
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.keep(event.data);
    };
    this.recorder = recorder;
    recorder.start(CHUNK_MS);
    this.clock.start();
  }

  private keep(blob: Blob) {
    const seq = this.seq++;
    this.writes = this.writes.then(async () => {
      if (this.failed) return;
      try {
        await this.store.addChunk(this.recording.id, seq, blob);
        this.recording.durationMs = Math.round(this.clock.elapsedMs);
        await this.store.put(this.recording);
        this.source.append(blob.size);
        this.events.onChunk?.(blob.size);
      } catch (error) {
        this.failed = true;
        this.events.onStoreFailed?.(error);
      }
    });
  }

  get state(): RecordingState | 'inactive' {
    return this.recorder?.state ?? 'inactive';
  }

  pause() {
    if (this.recorder?.state !== 'recording') return;
    this.recorder.pause();
    this.clock.pause();
    // What was recorded before the pause goes to the store (and the server) now, not after it.
    this.recorder.requestData();
  }

  resume() {
    if (this.recorder?.state !== 'paused') return;
    this.recorder.resume();
    this.clock.start();
  }

  /** Stops, waits for the last chunk to be stored, and marks the recording stopped (in the store and the source). */
  async stop(): Promise<StoredRecording> {
    const recorder = this.recorder;
    this.clock.pause();
    if (recorder && recorder.state !== 'inactive') {
      const stopped = new Promise<void>((resolve) =>
        recorder.addEventListener('stop', () => resolve(), { once: true }),
      );
      recorder.stop();
      await stopped;
    }
    await this.writes;
    this.recording.durationMs = Math.round(this.clock.elapsedMs);
    this.recording.stopped = true;
    await this.store.put(this.recording).catch(() => {
      // the chunks are there; a reopened page treats an unstopped recording as stopped
    });
    this.source.stop();
    return this.recording;
  }
}
