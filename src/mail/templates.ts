import { directionOf, type Locale } from '../contract/locales';
import { type MessageKey, translatorFor } from '../i18n/translate';
import type { Mail } from './mailer';

export const PRODUCT_NAME = 'Classroom';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The opening of every mail's HTML, in the recipient's language and its direction (Arabic reads right to left). */
const htmlStart = (locale: Locale) =>
  `<!doctype html><html lang="${locale}" dir="${directionOf(locale)}"><body style="font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc;padding:24px">
<div style="max-width:480px;margin:auto;background:#fff;border-radius:12px;padding:24px;border:1px solid #e2e8f0">
<h1 style="font-size:20px;margin:0 0 16px;color:#4f46e5">${PRODUCT_NAME}</h1>`;

function layout(locale: Locale, username: string, lines: string[], code?: string) {
  const t = translatorFor(locale);
  const html = `${htmlStart(locale)}
<p>${escapeHtml(t('mail.hello', { name: username }))}</p>
${lines
  .map((line, i) =>
    i === 0 && code
      ? `<p>${escapeHtml(line)}</p><p dir="ltr" style="font-size:32px;letter-spacing:8px;font-weight:700;margin:16px 0">${code}</p>`
      : `<p style="color:#64748b;font-size:14px">${escapeHtml(line)}</p>`,
  )
  .join('\n')}
</div></body></html>`;
  return html;
}

/** A mail of a few sentences to one person, in their language: the text and the HTML say the same. */
function plainMail(locale: Locale, to: string, username: string, subject: string, lines: string[]): Mail {
  const hello = translatorFor(locale)('mail.hello', { name: username });
  return { to, subject, text: [hello, '', ...lines].join('\n'), html: layout(locale, username, lines) };
}

/** A code mail: the subject and the first line carry the code; `notes` follow. */
function codeMail(
  locale: Locale,
  to: string,
  username: string,
  code: string,
  keys: { subject: MessageKey; codeIs: MessageKey; label: MessageKey },
  notes: string[],
): Mail {
  const t = translatorFor(locale);
  const values = { code, product: PRODUCT_NAME };
  const text = [t('mail.hello', { name: username }), '', t(keys.codeIs, values), '', ...notes].join('\n');
  return {
    to,
    subject: t(keys.subject, values),
    text,
    html: layout(locale, username, [t(keys.label), ...notes], code),
  };
}

export function verificationCodeMail(
  locale: Locale,
  to: string,
  username: string,
  code: string,
  otherSignups = false,
): Mail {
  const t = translatorFor(locale);
  const notes = [t('mail.verification.validity'), ...(otherSignups ? [t('mail.verification.otherSignups')] : [])];
  return codeMail(
    locale,
    to,
    username,
    code,
    { subject: 'mail.verification.subject', codeIs: 'mail.verification.codeIs', label: 'mail.verification.label' },
    notes,
  );
}

export function passwordResetMail(locale: Locale, to: string, username: string, code: string): Mail {
  const t = translatorFor(locale);
  return codeMail(
    locale,
    to,
    username,
    code,
    { subject: 'mail.reset.subject', codeIs: 'mail.reset.codeIs', label: 'mail.reset.label' },
    [t('mail.reset.validity')],
  );
}

/** The admin console's "send a test mail". */
export function testMail(locale: Locale, to: string, username: string, kind: string): Mail {
  const t = translatorFor(locale);
  return plainMail(locale, to, username, t('mail.test.subject', { product: PRODUCT_NAME }), [
    t('mail.test.body', { product: PRODUCT_NAME, kind }),
  ]);
}

/** Sent instead of a code when someone signs up with an address that already has an account. */
export function accountExistsMail(locale: Locale, to: string, username: string): Mail {
  const t = translatorFor(locale);
  return plainMail(locale, to, username, t('mail.accountExists.subject', { product: PRODUCT_NAME }), [
    t('mail.accountExists.tried', { product: PRODUCT_NAME }),
    t('mail.accountExists.ifYou'),
  ]);
}

/** One event of a notification mail or digest: a sentence and the page it links to (a lecture, unless `label`). */
export type NotificationItem = { line: string; url: string; quote?: string; label?: string };

/**
 * A notification mail (one event, or the daily digest of several): every one carries the RFC 8058 one-click
 * unsubscribe headers and a visible link to the same address. Names and comment text are escaped in the HTML.
 */
export function notificationMail(
  locale: Locale,
  to: string,
  username: string,
  subject: string,
  items: NotificationItem[],
  unsubscribeUrl: string,
  settingsUrl: string,
): Mail {
  const t = translatorFor(locale);
  const text = [
    t('mail.hello', { name: username }),
    '',
    ...items.flatMap((item) => [item.line, ...(item.quote ? [`  "${item.quote}"`] : []), `  ${item.url}`, '']),
    t('mail.notification.settingsText', { url: settingsUrl }),
    t('mail.notification.unsubscribeText', { url: unsubscribeUrl }),
  ].join('\n');
  const link = (url: string, label: string) =>
    `<a href="${escapeHtml(url)}" style="color:#4f46e5">${escapeHtml(label)}</a>`;
  const html = `${htmlStart(locale)}
<p>${escapeHtml(t('mail.hello', { name: username }))}</p>
${items
  .map(
    (item) =>
      `<p>${escapeHtml(item.line)}${item.quote ? `<br><q style="color:#475569">${escapeHtml(item.quote)}</q>` : ''}<br>${link(item.url, item.label ?? t('mail.notification.openLecture'))}</p>`,
  )
  .join('\n')}
<p style="color:#64748b;font-size:13px;margin-top:24px">${link(settingsUrl, t('mail.notification.settingsLink'))} · ${link(unsubscribeUrl, t('mail.notification.unsubscribe'))}</p>
</div></body></html>`;
  return {
    to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
