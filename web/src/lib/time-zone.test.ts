import { expect, test } from 'bun:test';
import { isoOfZonedInput, zonedInputValue } from './format';

test('a "watch by" typed on the school\'s clocks is the right instant, summer time included, and reads back', () => {
  expect(isoOfZonedInput('2030-11-30T23:59', 'Europe/Madrid')).toBe('2030-11-30T22:59:00.000Z');
  expect(isoOfZonedInput('2030-07-01T12:00', 'Europe/Madrid')).toBe('2030-07-01T10:00:00.000Z');
  expect(isoOfZonedInput('2030-07-01T12:00', 'America/Chicago')).toBe('2030-07-01T17:00:00.000Z');
  expect(isoOfZonedInput('2030-07-01T12:00', 'Asia/Kolkata')).toBe('2030-07-01T06:30:00.000Z');
  expect(isoOfZonedInput('2030-07-01T12:00', 'UTC')).toBe('2030-07-01T12:00:00.000Z');
  expect(zonedInputValue('2030-07-01T10:00:00.000Z', 'Europe/Madrid')).toBe('2030-07-01T12:00');
  expect(zonedInputValue('2030-11-30T22:59:00.000Z', 'Europe/Madrid')).toBe('2030-11-30T23:59');
  // The night summer time starts in Madrid: 01:30 exists, and reads back the same.
  const spring = isoOfZonedInput('2030-03-31T01:30', 'Europe/Madrid') as string;
  expect(zonedInputValue(spring, 'Europe/Madrid')).toBe('2030-03-31T01:30');
  expect(isoOfZonedInput('', 'UTC')).toBe(null);
  expect(isoOfZonedInput('tomorrow', 'UTC')).toBe(null);
  expect(zonedInputValue(null, 'UTC')).toBe('');
});
