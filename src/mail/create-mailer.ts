import type { Config } from '../config';
import type { Logger } from '../lib/log';
import { createLogMailer, createSmtpMailer, type Mailer } from './mailer';

/** SMTP when SMTP_URL is set; otherwise each mail (with its code) goes to the log, for the admin to read. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: Logger): Mailer {
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createLogMailer((line) => log.info({ component: 'mail' }, line));
}
