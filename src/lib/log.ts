import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

/** What a request's code logs through (`c.get('log')`): every line carries the request's id. */
export type RequestLog = Record<'info' | 'warn' | 'error', (fields: Record<string, unknown>, message: string) => void>;

const lineFormat = {
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
};

/**
 * The one logger: a JSON line per event (time, level, msg, and fields such as the request id), or readable
 * lines for a terminal with LOG_FORMAT=pretty. No worker-thread transport, so it runs inside the compiled binary.
 * JSON lines go to standard output without waiting: lines written while one write is in flight leave in one
 * write (a synchronous write per request was a third of a segment's CPU, bench:segments), and pino flushes them
 * when the process exits.
 */
export function createLogger(
  options: { level: string; format: 'json' | 'pretty' },
  destination?: DestinationStream,
): Logger {
  const stream =
    destination ??
    (options.format === 'pretty' ? pretty({ colorize: true, sync: true }) : pino.destination({ dest: 1, sync: false }));
  const logger = pino(
    {
      level: options.level,
      ...lineFormat,
      // Belt and braces: these never reach a log line, whatever a caller passes.
      redact: { paths: ['password', '*.password', 'token', '*.token', 'otp', '*.otp', 'authorization'], remove: true },
    },
    stream,
  );
  // The request line has fixed fields, none a secret (request-log.ts), so it skips the redaction, which parses
  // its paths again on every call (a tenth of a segment's CPU): same stream, same format, same level.
  lineLoggers.set(logger, pino({ level: options.level, ...lineFormat }, stream));
  return logger;
}

const lineLoggers = new WeakMap<Logger, Logger>();

/** Where the one-per-request line goes: the logger's own stream and format, without the redaction pass. */
export const requestLineLogger = (log: Logger): Logger => lineLoggers.get(log) ?? log;
