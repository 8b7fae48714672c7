import { expect, test } from 'bun:test';
import { mergedNotes } from './notes-merge';

const at = Date.UTC(2026, 10, 24, 8, 30);

test('unchanged on the server since the offline text began: the offline text is sent as it is', () => {
  const queued = { text: 'Waves carry energy', base: '2026-11-24T08:00:00.000Z', at };
  expect(mergedNotes(queued, { notes: 'Waves', updatedAt: '2026-11-24T08:00:00.000Z' })).toBe('Waves carry energy');
  // Nothing saved on the server yet.
  expect(mergedNotes({ ...queued, base: null }, { notes: '', updatedAt: null })).toBe('Waves carry energy');
  // Cleared on purpose, offline, from what the server still holds: the clearing is kept.
  expect(mergedNotes({ ...queued, text: '' }, { notes: 'Waves', updatedAt: '2026-11-24T08:00:00.000Z' })).toBe('');
});

test('changed on the server since (another device): both texts are kept, the offline one under a dated line', () => {
  const queued = { text: 'Written on the bus', base: '2026-11-24T08:00:00.000Z', at };
  const merged = mergedNotes(queued, { notes: 'Written at school', updatedAt: '2026-11-24T08:20:00.000Z' });
  expect(merged.startsWith('Written at school\n\n— Written offline on ')).toBe(true);
  expect(merged.endsWith('—\nWritten on the bus')).toBe(true);
});

test('an empty offline text never replaces newer notes on the server, nor is the same text added twice', () => {
  const server = { notes: 'Written at school', updatedAt: '2026-11-24T08:20:00.000Z' };
  expect(mergedNotes({ text: '  ', base: '2026-11-24T08:00:00.000Z', at }, server)).toBe('Written at school');
  expect(mergedNotes({ text: 'at school', base: '2026-11-24T08:00:00.000Z', at }, server)).toBe('Written at school');
});
