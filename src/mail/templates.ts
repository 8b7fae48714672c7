import type { Mail } from './mailer';

export const PRODUCT_NAME = 'Classroom';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function verificationCodeMail(to: string, username: string, code: string): Mail {
  const subject = `${code} is your ${PRODUCT_NAME} verification code`;
  const text = [
    `Hello ${username},`,
    '',
    `Your ${PRODUCT_NAME} verification code is: ${code}`,
    '',
    'It is valid for 10 minutes. If you did not ask for it, you can ignore this email.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;background:#f8fafc;padding:24px">
<div style="max-width:480px;margin:auto;background:#fff;border-radius:12px;padding:24px;border:1px solid #e2e8f0">
<h1 style="font-size:20px;margin:0 0 16px;color:#4f46e5">${PRODUCT_NAME}</h1>
<p>Hello ${escapeHtml(username)},</p>
<p>Your verification code is:</p>
<p style="font-size:32px;letter-spacing:8px;font-weight:700;margin:16px 0">${code}</p>
<p style="color:#64748b;font-size:14px">It is valid for 10 minutes. If you did not ask for it, you can ignore this email.</p>
</div></body></html>`;
  return { to, subject, text, html };
}
