import type { RecordingStore } from './recording-store';

/** What tus-js-client asks of a file reader's source (its `FileSource`), served from stored chunks. */
export type SliceResult = { value: Blob; done: boolean };

/**
 * The bytes of one recording as tus-js-client reads them: `slice(start, end)` answers the stored chunks' bytes in
 * that range as soon as there are any past `start`, waits while the recorder has not written more, and says
 * `done` once the recording has stopped and the slice reaches its last byte (tus then declares `Upload-Length`).
 * Any offset can be asked again (a retry starts from the server's offset), so bytes are read back from the store,
 * never kept in memory.
 */
export class ChunkSource {
  private readonly sizes: number[];
  private stopped: boolean;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly store: RecordingStore,
    private readonly recordingId: string,
    { sizes = [], stopped = false }: { sizes?: number[]; stopped?: boolean } = {},
  ) {
    this.sizes = [...sizes];
    this.stopped = stopped;
  }

  /** Bytes stored so far. */
  get size(): number {
    return this.sizes.reduce((sum, size) => sum + size, 0);
  }

  get chunkCount(): number {
    return this.sizes.length;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** A chunk the store now holds (call after `addChunk` resolved, with the next seq). */
  append(size: number) {
    this.sizes.push(size);
    this.wake();
  }

  /** No more chunks: the last slice says `done`. */
  stop() {
    this.stopped = true;
    this.wake();
  }

  /** The upload was given up: a slice still waiting answers nothing more. */
  close() {
    this.closed = true;
    this.wake();
  }

  private wake() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }

  async slice(start: number, end: number): Promise<SliceResult> {
    while (!this.stopped && !this.closed && this.size <= start) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const total = this.size;
    const last = Math.min(end, total);
    const parts: Blob[] = [];
    let offset = 0;
    let firstOffset = -1;
    for (let seq = 0; seq < this.sizes.length && offset < last; seq++) {
      const size = this.sizes[seq] ?? 0;
      if (offset + size > start) {
        const blob = await this.store.chunk(this.recordingId, seq);
        if (!blob) throw new Error(`recording chunk ${seq} is missing`);
        if (firstOffset < 0) firstOffset = offset;
        parts.push(blob);
      }
      offset += size;
    }
    const value =
      firstOffset < 0 ? new Blob([]) : new Blob(parts).slice(start - firstOffset, Math.max(start, last) - firstOffset);
    return { value, done: this.stopped && end >= total };
  }

  /** A tus-js-client `fileReader` whose every file is this source. */
  fileReader() {
    return {
      openFile: async () => ({
        size: Number.NaN,
        slice: (start: number, end: number) => this.slice(start, end),
        close: () => {
          // the store keeps the chunks until the recording is saved or discarded
        },
      }),
    };
  }
}
