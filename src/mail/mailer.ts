import nodemailer from 'nodemailer';

/** `headers`: extra header lines (a notification's List-Unsubscribe pair, RFC 8058). */
export type Mail = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };

export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(mail: Mail): Promise<void>;
}

/** Sends through an SMTP server given as a URL (smtp://user:pass@host:port or smtps://…). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/** With no SMTP server configured, each mail goes to the server log so an admin can read the code. */
export function createLogMailer(log: (line: string) => void): Mailer {
  return {
    kind: 'log',
    async send(mail) {
      log(`[mail] to=${mail.to} subject="${mail.subject}"\n${mail.text}`);
    },
  };
}
