import type { ByteRange, StoredBody } from '../storage/storage';

/**
 * Parses a single `Range: bytes=…` header against a file of `size` bytes: undefined for none (or one we
 * do not serve: multiple ranges, other units), 'unsatisfiable' for a range outside the file.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Answers a file with byte-range support (players and Safari ask for ranges). */
export async function fileResponse(
  request: Request,
  size: number,
  read: (range?: ByteRange) => Promise<StoredBody | undefined>,
  headers: Record<string, string>,
): Promise<Response | undefined> {
  // nosniff, CORP and no-referrer come from the app's answer headers (app.ts), as for every /media answer.
  const common = { ...headers, 'Accept-Ranges': 'bytes' };
  const head = request.method === 'HEAD';
  const range = parseRange(request.headers.get('range'), size);
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...common, 'Content-Range': `bytes */${size}` } });
  }
  const body = head ? null : await read(range);
  if (!head && !body) return undefined;
  if (!range) return new Response(body, { status: 200, headers: { ...common, 'Content-Length': String(size) } });
  return new Response(body, {
    status: 206,
    headers: {
      ...common,
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
      'Content-Length': String(range.end - range.start + 1),
    },
  });
}
