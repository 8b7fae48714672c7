import { expect, test } from 'bun:test';
import { ChunkSource } from './chunk-source';
import { memoryStore } from './recording-store';

const text = async (blob: Blob) => new TextDecoder().decode(await blob.arrayBuffer());

async function recorded(chunks: string[], stopped = false) {
  const store = memoryStore();
  const source = new ChunkSource(store, 'rec-1');
  for (const [seq, chunk] of chunks.entries()) {
    await store.addChunk('rec-1', seq, new Blob([chunk]));
    source.append(chunk.length);
  }
  if (stopped) source.stop();
  return { store, source };
}

test('a slice across chunk boundaries answers exactly the bytes asked for', async () => {
  const { source } = await recorded(['abcd', 'efg', 'hijkl']);
  const slice = await source.slice(2, 9);
  expect(await text(slice.value)).toBe('cdefghi');
  expect(slice.done).toBe(false);
});

test('while recording, a slice answers what is there without waiting for a full chunk', async () => {
  const { source } = await recorded(['abcd']);
  const slice = await source.slice(0, Number.MAX_SAFE_INTEGER);
  expect(await text(slice.value)).toBe('abcd');
  expect(slice.done).toBe(false);
});

test('a slice past the recorded bytes waits for the next chunk', async () => {
  const { store, source } = await recorded(['abcd']);
  let answered = false;
  const pending = source.slice(4, 100).then((slice) => {
    answered = true;
    return slice;
  });
  await Bun.sleep(20);
  expect(answered).toBe(false);
  await store.addChunk('rec-1', 1, new Blob(['xyz']));
  source.append(3);
  const slice = await pending;
  expect(await text(slice.value)).toBe('xyz');
  expect(slice.done).toBe(false);
});

test('Stop wakes a waiting slice, which then says done with nothing more', async () => {
  const { source } = await recorded(['abcd']);
  const pending = source.slice(4, 100);
  source.stop();
  const slice = await pending;
  expect(slice.value.size).toBe(0);
  expect(slice.done).toBe(true);
});

test('after Stop, the slice that reaches the last byte says done, and an earlier one does not', async () => {
  const { source } = await recorded(['abcd', 'efgh'], true);
  const early = await source.slice(0, 5);
  expect(await text(early.value)).toBe('abcde');
  expect(early.done).toBe(false);
  const last = await source.slice(5, 50);
  expect(await text(last.value)).toBe('fgh');
  expect(last.done).toBe(true);
});

test('a source reopened from the store (after a crash) serves any offset again', async () => {
  const { store } = await recorded(['abcd', 'efgh']);
  const reopened = new ChunkSource(store, 'rec-1', { sizes: await store.chunkSizes('rec-1'), stopped: true });
  expect(reopened.size).toBe(8);
  const retry = await reopened.slice(3, 100);
  expect(await text(retry.value)).toBe('defgh');
  expect(retry.done).toBe(true);
});

test('a missing chunk is an error, never bytes out of order', async () => {
  const store = memoryStore();
  const source = new ChunkSource(store, 'rec-1', { sizes: [4, 4], stopped: true });
  await store.addChunk('rec-1', 1, new Blob(['efgh']));
  await expect(source.slice(0, 8)).rejects.toThrow('missing');
});

test('closing wakes a waiting slice', async () => {
  const { source } = await recorded(['ab']);
  const pending = source.slice(2, 10);
  source.close();
  expect((await pending).value.size).toBe(0);
});

test('the memory store keeps recordings per person', async () => {
  const store = memoryStore();
  const base = {
    courseId: 'c',
    nameOfTopic: 'Optics',
    mimeType: 'video/webm',
    startedAt: 1,
    durationMs: 0,
    uploadUrl: null,
    stopped: false,
  };
  await store.put({ ...base, id: 'a', userId: 'teacher-1' });
  await store.put({ ...base, id: 'b', userId: 'teacher-2' });
  expect((await store.ofUser('teacher-1')).map((row) => row.id)).toEqual(['a']);
  await store.remove('a');
  expect(await store.ofUser('teacher-1')).toEqual([]);
});
