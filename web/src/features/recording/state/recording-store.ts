/**
 * Where a recording lives in the browser until the server has all of it: IndexedDB, one row per recording and one
 * per MediaRecorder chunk. Nothing is read or opened when this module loads; `indexedDbStore()` opens on first use.
 */

/** A recording as this browser keeps it; `userId` keys it so another person on this computer never sees it. */
export type StoredRecording = {
  id: string;
  userId: string;
  courseId: string;
  nameOfTopic: string;
  mimeType: string;
  startedAt: number;
  /** Recorded time so far (pauses left out), written with every chunk so a crash keeps it to within one chunk. */
  durationMs: number;
  /** The tus upload's address once the server made it: a reopened page resumes there. */
  uploadUrl: string | null;
  /** The teacher pressed Stop (or the page that recorded it is gone): no more chunks will come. */
  stopped: boolean;
};

/** The one interface the recorder and the upload use, so tests can keep chunks in memory. */
export type RecordingStore = {
  put(recording: StoredRecording): Promise<void>;
  get(id: string): Promise<StoredRecording | undefined>;
  ofUser(userId: string): Promise<StoredRecording[]>;
  addChunk(recordingId: string, seq: number, blob: Blob): Promise<void>;
  chunk(recordingId: string, seq: number): Promise<Blob | undefined>;
  /** Every chunk's size in order (seq 0, 1, …): what a reopened page needs to serve bytes again. */
  chunkSizes(recordingId: string): Promise<number[]>;
  chunks(recordingId: string): Promise<Blob[]>;
  remove(id: string): Promise<void>;
};

const DB_NAME = 'classroom-recordings';
type ChunkRow = { recordingId: string; seq: number; blob: Blob };

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
const committed = (transaction: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('aborted'));
  });

let opened: Promise<IDBDatabase> | null = null;
function openDb(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('recordings', { keyPath: 'id' }).createIndex('userId', 'userId');
      db.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opened = null;
      reject(request.error);
    };
  });
  return opened;
}

const chunksOf = (recordingId: string) => IDBKeyRange.bound([recordingId, 0], [recordingId, Number.MAX_SAFE_INTEGER]);

/** The browser's store: IndexedDB, which outlives a crash, a closed tab and a sign-out. */
export function indexedDbStore(): RecordingStore {
  const run = async <T>(
    names: string[],
    mode: IDBTransactionMode,
    work: (transaction: IDBTransaction) => IDBRequest<T> | undefined,
  ) => {
    const transaction = (await openDb()).transaction(names, mode);
    const request = work(transaction);
    const [result] = await Promise.all([request ? done(request) : undefined, committed(transaction)]);
    return result as T;
  };
  return {
    put: (recording) => run(['recordings'], 'readwrite', (tx) => tx.objectStore('recordings').put(recording)).then(),
    get: (id) =>
      run<StoredRecording | undefined>(['recordings'], 'readonly', (tx) => tx.objectStore('recordings').get(id)),
    ofUser: (userId) =>
      run<StoredRecording[]>(['recordings'], 'readonly', (tx) =>
        tx.objectStore('recordings').index('userId').getAll(userId),
      ),
    addChunk: (recordingId, seq, blob) =>
      run(['chunks'], 'readwrite', (tx) => tx.objectStore('chunks').put({ recordingId, seq, blob })).then(),
    chunk: async (recordingId, seq) =>
      (
        await run<ChunkRow | undefined>(['chunks'], 'readonly', (tx) =>
          tx.objectStore('chunks').get([recordingId, seq]),
        )
      )?.blob,
    chunkSizes: async (recordingId) =>
      (
        await run<ChunkRow[]>(['chunks'], 'readonly', (tx) => tx.objectStore('chunks').getAll(chunksOf(recordingId)))
      ).map((row) => row.blob.size),
    chunks: async (recordingId) =>
      (
        await run<ChunkRow[]>(['chunks'], 'readonly', (tx) => tx.objectStore('chunks').getAll(chunksOf(recordingId)))
      ).map((row) => row.blob),
    remove: (id) =>
      run(['recordings', 'chunks'], 'readwrite', (tx) => {
        tx.objectStore('chunks').delete(chunksOf(id));
        tx.objectStore('recordings').delete(id);
        return undefined;
      }).then(),
  };
}

/** The same store in memory: for tests, and where IndexedDB is blocked (a private window in some browsers). */
export function memoryStore(): RecordingStore {
  const recordings = new Map<string, StoredRecording>();
  const chunks = new Map<string, Blob[]>();
  const list = (id: string) => chunks.get(id) ?? [];
  return {
    put: async (recording) => {
      recordings.set(recording.id, { ...recording });
    },
    get: async (id) => {
      const found = recordings.get(id);
      return found && { ...found };
    },
    ofUser: async (userId) =>
      [...recordings.values()].filter((row) => row.userId === userId).map((row) => ({ ...row })),
    addChunk: async (recordingId, seq, blob) => {
      const stored = [...list(recordingId)];
      stored[seq] = blob;
      chunks.set(recordingId, stored);
    },
    chunk: async (recordingId, seq) => list(recordingId)[seq],
    chunkSizes: async (recordingId) => list(recordingId).map((blob) => blob.size),
    chunks: async (recordingId) => [...list(recordingId)],
    remove: async (id) => {
      recordings.delete(id);
      chunks.delete(id);
    },
  };
}

let browserStore: RecordingStore | null = null;
/** This browser's store, made on first use (IndexedDB; in memory where the browser has none). */
export function recordingStore(): RecordingStore {
  browserStore ??= typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore();
  return browserStore;
}
