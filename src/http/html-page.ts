import { directionOf, type Locale } from '../contract/locales';
import { PRODUCT_NAME } from '../mail/templates';

/**
 * A small page the server answers itself (the unsubscribe link, the LTI launch pages) that looks like the app (web/src/styles.css: its font, colours, brand and card) without loading any of it.
 */
export function page(locale: Locale, title: string, body: string) {
  return `<!doctype html><html lang="${locale}" dir="${directionOf(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${PRODUCT_NAME}</title>
<style>body{font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1e293b;background:linear-gradient(135deg,#eef2ff,#fff,#f0f9ff);margin:0;padding:40px 16px;min-height:100vh;box-sizing:border-box;-webkit-font-smoothing:antialiased}
.brand{display:flex;align-items:center;justify-content:center;gap:8px;margin-bottom:24px;font-size:24px;font-weight:600;letter-spacing:-.025em;color:#0f172a}
main{max-width:448px;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:16px;box-shadow:0 1px 3px rgb(0 0 0/.1),0 1px 2px -1px rgb(0 0 0/.1);padding:32px 24px;text-align:center}
h1{font-size:24px;font-weight:600;letter-spacing:-.025em;color:#0f172a;margin:0 0 12px}p{color:#334155;line-height:1.5;margin:0 0 24px}
button{font:inherit;font-size:14px;font-weight:600;color:#fff;background:#4f46e5;border:0;border-radius:12px;padding:0 16px;height:44px;cursor:pointer;box-shadow:0 1px 2px rgb(0 0 0/.05)}button:hover{background:#4338ca}
:focus-visible{outline:2px solid #6366f1;outline-offset:2px}a{color:#4f46e5;font-weight:600}a:hover{color:#3730a3}main>:last-child{margin-bottom:0}
a.button{display:inline-flex;align-items:center;justify-content:center;height:44px;padding:0 16px;border-radius:12px;background:#4f46e5;color:#fff;font-size:14px;text-decoration:none}a.button:hover{background:#4338ca;color:#fff}
.picks{border:0;padding:0;margin:0 0 24px;min-width:0;text-align:start}.picks legend{padding:0;margin-bottom:8px;color:#334155;line-height:1.5}
.pick{display:flex;align-items:center;gap:12px;min-height:44px;padding:4px 12px;border-radius:12px;cursor:pointer;line-height:1.3;overflow-wrap:anywhere}.pick:hover{background:#f8fafc}.pick:has(input:checked){background:#eef2ff}
.pick.nested{padding-inline-start:44px}.pick input{flex:none;width:20px;height:20px;margin:0;accent-color:#4f46e5;cursor:pointer}</style>
</head><body><div class="brand"><svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true"><rect width="24" height="24" rx="6" fill="#4f46e5"/><path d="M20 10 12 6 4 10l8 4zm-12.5 1.8v3.7c2.5 1.7 6.5 1.7 9 0v-3.7" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/></svg>${PRODUCT_NAME}</div><main>${body}</main></body></html>`;
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
