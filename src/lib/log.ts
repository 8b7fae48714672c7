import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** What a request's code logs through (`c.get('log')`): every line carries the request's id. */
export type RequestLog = Record<'info' | 'warn' | 'error', (fields: Record<string, unknown>, message: string) => void>;

/**
 * The one logger: a JSON line per event (time, level, msg, and fields such as the request id), or readable
 * lines for a terminal with LOG_FORMAT=pretty. No worker-thread transport, so it runs inside the compiled binary.
 */
export function createLogger(
  options: { level: string; format: 'json' | 'pretty' },
  destination?: DestinationStream,
): Logger {
  const stream = destination ?? (options.format === 'pretty' ? pretty({ colorize: true, sync: true }) : undefined);
  return pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Belt and braces: these never reach a log line, whatever a caller passes.
      redact: { paths: ['password', '*.password', 'token', '*.token', 'otp', '*.otp', 'authorization'], remove: true },
    },
    stream,
  );
}
