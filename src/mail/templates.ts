import type { Mail } from './mailer';

export const PRODUCT_NAME = 'Classroom';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function layout(username: string, lines: string[], code?: string) {
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc;padding:24px">
<div style="max-width:480px;margin:auto;background:#fff;border-radius:12px;padding:24px;border:1px solid #e2e8f0">
<h1 style="font-size:20px;margin:0 0 16px;color:#4f46e5">${PRODUCT_NAME}</h1>
<p>Hello ${escapeHtml(username)},</p>
${lines
  .map((line, i) =>
    i === 0 && code
      ? `<p>${escapeHtml(line)}</p><p style="font-size:32px;letter-spacing:8px;font-weight:700;margin:16px 0">${code}</p>`
      : `<p style="color:#64748b;font-size:14px">${escapeHtml(line)}</p>`,
  )
  .join('\n')}
</div></body></html>`;
  return html;
}

export function verificationCodeMail(to: string, username: string, code: string, otherSignups = false): Mail {
  const subject = `${code} is your ${PRODUCT_NAME} verification code`;
  const notes = [
    'It is valid for 10 minutes. If you did not ask for it, you can ignore this email.',
    ...(otherSignups
      ? ['Someone else has also started a sign-up with this address. Enter the code in the browser you signed up in.']
      : []),
  ];
  const text = [`Hello ${username},`, '', `Your ${PRODUCT_NAME} verification code is: ${code}`, '', ...notes].join(
    '\n',
  );
  return { to, subject, text, html: layout(username, ['Your verification code is:', ...notes], code) };
}

export function passwordResetMail(to: string, username: string, code: string): Mail {
  const subject = `${code} is your ${PRODUCT_NAME} password reset code`;
  const note =
    'It is valid for 10 minutes. If you did not ask to reset your password, ignore this email: your password stays as it is.';
  const text = [`Hello ${username},`, '', `Your ${PRODUCT_NAME} password reset code is: ${code}`, '', note].join('\n');
  return { to, subject, text, html: layout(username, ['Your password reset code is:', note], code) };
}

/** The admin console's "send a test mail". */
export function testMail(to: string, username: string, kind: string): Mail {
  const lines = [`This is a test mail from ${PRODUCT_NAME}. Mail works (${kind}).`];
  return {
    to,
    subject: `${PRODUCT_NAME} test mail`,
    text: [`Hello ${username},`, '', ...lines].join('\n'),
    html: layout(username, lines),
  };
}

/** Sent instead of a code when someone signs up with an address that already has an account. */
export function accountExistsMail(to: string, username: string): Mail {
  const lines = [
    `Someone tried to create a ${PRODUCT_NAME} account with this email address, which already has one.`,
    'If it was you, log in instead, or use "Forgot password?" on the login screen. If not, you can ignore this email.',
  ];
  return {
    to,
    subject: `Your ${PRODUCT_NAME} account`,
    text: [`Hello ${username},`, '', ...lines].join('\n'),
    html: layout(username, lines),
  };
}

/** One event of a notification mail or digest: a sentence and the page it links to (a lecture, unless `label`). */
export type NotificationItem = { line: string; url: string; quote?: string; label?: string };

/**
 * A notification mail (one event, or the daily digest of several): every one carries the RFC 8058 one-click
 * unsubscribe headers and a visible link to the same address. Names and comment text are escaped in the HTML.
 */
export function notificationMail(
  to: string,
  username: string,
  subject: string,
  items: NotificationItem[],
  unsubscribeUrl: string,
  settingsUrl: string,
): Mail {
  const text = [
    `Hello ${username},`,
    '',
    ...items.flatMap((item) => [item.line, ...(item.quote ? [`  "${item.quote}"`] : []), `  ${item.url}`, '']),
    `Choose which emails you get in Settings: ${settingsUrl}`,
    `Unsubscribe from these emails: ${unsubscribeUrl}`,
  ].join('\n');
  const link = (url: string, label: string) =>
    `<a href="${escapeHtml(url)}" style="color:#4f46e5">${escapeHtml(label)}</a>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc;padding:24px">
<div style="max-width:480px;margin:auto;background:#fff;border-radius:12px;padding:24px;border:1px solid #e2e8f0">
<h1 style="font-size:20px;margin:0 0 16px;color:#4f46e5">${PRODUCT_NAME}</h1>
<p>Hello ${escapeHtml(username)},</p>
${items
  .map(
    (item) =>
      `<p>${escapeHtml(item.line)}${item.quote ? `<br><q style="color:#475569">${escapeHtml(item.quote)}</q>` : ''}<br>${link(item.url, item.label ?? 'Open the lecture')}</p>`,
  )
  .join('\n')}
<p style="color:#64748b;font-size:13px;margin-top:24px">${link(settingsUrl, 'Choose which emails you get')} · ${link(unsubscribeUrl, 'Unsubscribe')}</p>
</div></body></html>`;
  return {
    to,
    subject,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
