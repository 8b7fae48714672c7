/** Answers a file with byte-range support (players and Safari ask for ranges). */
export async function fileResponse(
  request: Request,
  path: string,
  headers: Record<string, string>,
): Promise<Response | undefined> {
  const file = Bun.file(path);
  if (!(await file.exists())) return undefined;
  const size = file.size;
  const common = { ...headers, 'Accept-Ranges': 'bytes', 'X-Content-Type-Options': 'nosniff' };
  const range = request.headers.get('range');
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!range || !match || (match[1] === '' && match[2] === '')) {
    return new Response(request.method === 'HEAD' ? null : file, {
      status: 200,
      headers: { ...common, 'Content-Length': String(size) },
    });
  }
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) {
    return new Response(null, { status: 416, headers: { ...common, 'Content-Range': `bytes */${size}` } });
  }
  return new Response(request.method === 'HEAD' ? null : file.slice(start, end + 1), {
    status: 206,
    headers: { ...common, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(end - start + 1) },
  });
}
