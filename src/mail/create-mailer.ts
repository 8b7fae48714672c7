import type { Config } from '../config';
import { createLogMailer, createSmtpMailer, type Mailer } from './mailer';

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer {
  return config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer();
}
