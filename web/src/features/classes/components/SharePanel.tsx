import { teacherIdOf } from '@lib/course-teacher';
import { rich, t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { CopyIcon, RefreshIcon } from '@ui/icons';
import { Modal } from '@ui/Modal';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { shareOrigin, useAppInfo } from '../api/app';
import { type Course, useRegenerateInviteCode } from '../api/courses';

const QR_SIZE = 200;
/** The QR library loads only when a teacher opens the share panel, not with every student's course page. */
const QRCodeCanvas = lazy(() => import('qrcode.react').then((module) => ({ default: module.QRCodeCanvas })));
const COPIED_MS = 2000;

/** The width of one character of the box's (monospaced) font. */
function charWidth(style: CSSStyleDeclaration) {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return 8;
  context.font = `${style.fontSize} ${style.fontFamily}`;
  return context.measureText('0').width || 8;
}

/**
 * How many characters a line of the link may hold so that the code at its end is never split (null: as many as
 * fit). The link breaks anywhere (a host may be longer than a phone is wide), so a line holds exactly that many.
 */
export function unbrokenLineChars(link: string, code: string, fitting: number): number | null {
  const fit = Math.floor(fitting + 0.01);
  const start = link.length - code.length;
  if (link.length <= fit || !link.endsWith(code) || fit < code.length) return null;
  // The host and /join/ on one line, the code on the next.
  if (start <= fit) return start;
  for (let chars = fit; chars >= code.length; chars -= 1) if ((start % chars) + code.length <= chars) return chars;
  return null;
}

/** Link, copy button, QR code and the code in large type; the class's teacher can replace a leaked code. */
export function SharePanel({ course }: { course: Course }) {
  // Only the class's teacher may make a new code: a student on /share/{id} is not offered a button the server refuses.
  const isTeacher = useSession().user?._id === teacherIdOf(course);
  const regenerateCode = useRegenerateInviteCode();
  const [copied, setCopied] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const appInfo = useAppInfo();
  const { origin, warning } = shareOrigin(appInfo.data, window.location);
  // No link until the server has said which address to share (PUBLIC_URL): never one that would change a moment later.
  const link = appInfo.isPending ? '' : `${origin}/join/${course.inviteCode}`;

  // The link's box is as tall as the link: one line when it fits, two on a phone, never an empty second line. When
  // it wraps, the box narrows so the class code starts a line (the font is monospaced): never "…/join/K7M" + "2XQP".
  const linkBox = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box's width and height follow the link's text
  useLayoutEffect(() => {
    const box = linkBox.current;
    if (!box) return;
    const fit = () => {
      box.style.maxWidth = '';
      const style = getComputedStyle(box);
      const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
      const width = charWidth(style);
      const chars = unbrokenLineChars(box.value, course.inviteCode, (box.clientWidth - padding) / width);
      if (chars !== null) {
        box.style.maxWidth = `${chars * width + padding + box.offsetWidth - box.clientWidth + 0.5}px`;
      }
      box.style.height = 'auto';
      box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(box.parentElement ?? box);
    return () => observer.disconnect();
  }, [link]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard API is refused on plain http off localhost: fall back to a selection copy.
      const input = document.createElement('textarea');
      input.value = link;
      document.body.append(input);
      input.select();
      document.execCommand('copy');
      input.remove();
    }
    setCopied(true);
  }

  const regenerate = () =>
    regenerateCode.mutate(course._id, {
      onSuccess: () => {
        toast.success(t('classes.share.regenerated'));
        setConfirmOpen(false);
      },
    });
  const busy = regenerateCode.isPending;

  // The layout follows the panel's own width (a container query), not the window's: beside an open navigation at
  // 768 px the panel is narrow, and the QR code beside the code left the code three lines and the link "http:".
  return (
    <section aria-label={t('classes.shareClassroom')} className="card @container p-5 sm:p-6">
      <div className="grid gap-6 @2xl:grid-cols-[auto_1fr] @2xl:items-center">
        <figure className="mx-auto flex flex-col items-center gap-2">
          <div className="rounded-xl border border-slate-200 bg-white p-2">
            <Suspense fallback={<div style={{ width: QR_SIZE, height: QR_SIZE }} aria-hidden="true" />}>
              {link ? (
                <QRCodeCanvas
                  value={link}
                  size={QR_SIZE}
                  marginSize={2}
                  aria-label={t('classes.share.qr')}
                  role="img"
                />
              ) : (
                <div style={{ width: QR_SIZE, height: QR_SIZE }} aria-hidden="true" />
              )}
            </Suspense>
          </div>
          <figcaption className="text-sm text-slate-600">{t('classes.share.scan')}</figcaption>
        </figure>
        <div className="flex min-w-0 flex-col gap-4">
          <div>
            <p className="text-sm font-medium text-slate-600">{t('classes.classCode')}</p>
            <p
              className="font-mono text-[clamp(1.75rem,11cqi,3.75rem)] leading-tight font-bold tracking-[0.15em] whitespace-nowrap text-slate-900 @2xl:text-[clamp(1.75rem,8cqi,3.75rem)]"
              data-testid="invite-code"
              translate="no"
            >
              {course.inviteCode}
            </p>
          </div>
          <Field label={t('classes.share.link')} id="invite-link">
            {(wiring) => (
              <>
                <div className="flex gap-2">
                  {/* A box that wraps, so the whole link shows at any width, sized to it (an input hid the link's end). */}
                  <textarea
                    {...wiring}
                    ref={linkBox}
                    className="input min-h-10 min-w-0 flex-1 resize-none overflow-hidden py-2 font-mono text-sm leading-snug [line-break:anywhere] [overflow-wrap:anywhere]"
                    rows={1}
                    value={link}
                    // An address: never translated, and left to right in an Arabic page too.
                    translate="no"
                    dir="ltr"
                    readOnly
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <button
                    type="button"
                    className="btn btn-secondary shrink-0 self-start"
                    onClick={copy}
                    disabled={!link}
                    aria-label={t('classes.share.copyLink')}
                  >
                    <CopyIcon size={18} />
                    <span className="hidden sm:inline">{t('common.copy')}</span>
                  </button>
                </div>
                <p role="status" className="h-5 text-sm font-medium text-emerald-700">
                  {copied ? t('classes.share.copied') : ''}
                </p>
                {warning && (
                  <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid="share-warning">
                    {warning}
                  </p>
                )}
              </>
            )}
          </Field>
          {isTeacher && (
            <button type="button" className="btn btn-secondary self-start" onClick={() => setConfirmOpen(true)}>
              <RefreshIcon size={18} /> {t('classes.share.newCode')}
            </button>
          )}
        </div>
      </div>
      <Modal
        open={isTeacher && confirmOpen}
        title={t('classes.share.confirmTitle')}
        onClose={() => setConfirmOpen(false)}
      >
        <p className="text-slate-700">
          {rich(t('classes.share.confirmBody', { code: course.inviteCode }), [
            (code) => (
              <strong key="code" className="font-mono" translate="no">
                {code}
              </strong>
            ),
          ])}
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <button type="button" className="btn btn-secondary" onClick={() => setConfirmOpen(false)}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={regenerate} disabled={busy}>
            {t(busy ? 'classes.share.making' : 'classes.share.make')}
          </button>
        </div>
      </Modal>
    </section>
  );
}
