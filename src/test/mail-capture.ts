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
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        mails.push({ to, subject, text: raw });
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
      const code = mail && /verification code is: (\d{6})/.exec(mail.text)?.[1];
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
    const code = /(?:verification|password reset) code is: (\d{6})/.exec(mail.text)?.[1];
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
