import { SMTPServer } from 'smtp-server';

export type CapturedMail = { to: string; subject: string; text: string };

/** A real SMTP server on loopback that keeps every mail it receives. */
export async function startMailCapture() {
  const mails: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const headers = raw.slice(0, raw.indexOf('\r\n\r\n') >>> 0).replace(/\r?\n[ \t]+/g, ' ');
        const subject = decodeWords(/^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '');
        // The raw message (headers included), then each part's text decoded: any language reads as written.
        mails.push({ to, subject, text: `${raw}\n${decodedParts(raw).join('\n')}` });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;

  const mailsTo = (to: string) => mails.filter((m) => m.to === to.toLowerCase());

  /** Waits until more than `seen` mails reached `to`, and returns the 6-digit code of the newest. */
  async function codeFor(to: string, seen = 0, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = mailsTo(to);
      const mail = list.length > seen ? list.at(-1) : undefined;
      // The code is in the subject in every language ("123456 is your…", "123456 es tu…").
      const code = mail && /\b(\d{6})\b/.exec(mail.subject)?.[1];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`No mail for ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Waits until `to` has received at least `count` mails. */
  async function waitFor(to: string, count: number, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (mailsTo(to).length < count) {
      if (Date.now() > deadline) throw new Error(`Only ${mailsTo(to).length} of ${count} mails reached ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return mailsTo(to);
  }

  /** Waits for the `n`th mail (1-based) to `to` and returns its 6-digit code (verification or reset). */
  async function nthCode(to: string, n: number) {
    const mail = (await waitFor(to, n))[n - 1];
    const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
    if (!code) throw new Error(`Mail ${n} to ${to} carries no code: ${mail.subject}`);
    return code;
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    waitFor,
    nthCode,
    mails,
    codeFor,
    mailsTo,
    clear: () => mails.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) as text. */
function decodeWords(text: string): string {
  return text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** Every text part's body, decoded from base64 or quoted-printable. */
function decodedParts(raw: string): string[] {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts.flatMap((part) => {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) return [];
    const head = part.slice(0, split);
    const body = part
      .slice(split)
      .trim()
      .replace(/\r?\n--[^\r\n]*--\s*$/, '');
    if (/content-transfer-encoding:\s*base64/i.test(head)) return [Buffer.from(body, 'base64').toString('utf8')];
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
      return [
        Buffer.from(
          body
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
      ];
    return [];
  });
}
