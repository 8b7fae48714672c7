import { ApiError } from '@api/client';
import { errorMessage } from '@api/query-client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { Field } from '@ui/Field';
import { FileField } from '@ui/FilePicker';
import { FormError } from '@ui/FormError';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type Caption, type Lecture, useAddCaption, useDeleteCaption, useLectures } from '../api/lectures';

/** Languages offered first; any BCP 47 tag can be typed. */
const COMMON_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'tr', 'ar', 'uk', 'ru', 'zh', 'ja', 'hi'];

const languageName = (tag: string) => {
  try {
    return new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? '';
  } catch {
    return '';
  }
};

/** The lecture routes' request schemas: the captions' language and label are checked by the server's own rules. */
const contract = () => loadSchemas(() => import('@contract/lectures'));

/** What the add form holds: the file is the form's own check, the language and label the contract's. */
type Added = { file: File | null; language: string; label: string };

/**
 * A topic's captions, in the Edit Topic modal: each language with its label and a Delete, and a form that adds a
 * WebVTT or SRT file (the same language again replaces it). Changes apply at once, apart from the topic's Save.
 */
export function CaptionsEditor({ lecture: initial }: { lecture: Lecture }) {
  // The class's list is the source of truth: it refreshes after each change.
  const lecture = useLectures(initial.courseId).data?.find((item) => item._id === initial._id) ?? initial;
  const addCaption = useAddCaption();
  const deleteCaption = useDeleteCaption();
  const [file, setFile] = useState<File | null>(null);
  const [language, setLanguage] = useState('');
  const [label, setLabel] = useState('');
  const [labelTouched, setLabelTouched] = useState(false);
  const [error, setError] = useState('');
  /** Each field's problem, said under it before anything is sent (the language's and label's in the server's words). */
  const form = useForm({
    schema: async () => (await contract()).captionFields,
    mutation: addCaption,
    also: (values: Added): Record<string, string> => (values.file ? {} : { file: t('lectures.captions.noFile') }),
    send: (values: Added) => ({
      lecture,
      file: values.file as File,
      language: values.language.trim(),
      label: values.label.trim(),
    }),
  });
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    setError('');
    const replacing = lecture.captions.some((caption) => caption.language === language.trim());
    await form.submit(
      { file, language, label },
      {
        onSuccess: () => {
          toast.success(
            t(replacing ? 'lectures.captions.replaced' : 'lectures.captions.added', { label: label.trim() }),
          );
          setFile(null);
          setLanguage('');
          setLabel('');
          setLabelTouched(false);
          if (fileInput.current) fileInput.current.value = '';
        },
        // A refusal naming its fields shows under them (the form helper); anything else under the form.
        onError: (failure) => {
          if (!(failure instanceof ApiError && failure.body.fields)) setError(errorMessage(failure));
        },
      },
    );
  }

  async function onDelete(caption: Caption) {
    try {
      await deleteCaption.mutateAsync({ lecture, caption });
      toast.success(t('lectures.captions.deleted', { label: caption.label }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        {t('lectures.captions.title')}
      </h3>
      {lecture.captions.length === 0 ? (
        <p className="text-sm text-slate-600">{t('lectures.captions.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {lecture.captions.map((caption) => (
            <li key={caption.id} className="flex items-center justify-between gap-2 text-sm">
              <span translate="no">
                {caption.label} <span className="text-slate-500">({caption.language})</span>
              </span>
              <button
                type="button"
                className="rounded px-2 py-1 font-medium text-red-700 hover:bg-red-50 disabled:opacity-50"
                disabled={deleteCaption.isPending}
                onClick={() => onDelete(caption)}
                aria-label={t('lectures.captions.deleteLabel', { label: caption.label })}
              >
                {t('common.delete')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onAdd} onFocus={form.prefetch} className="flex flex-col gap-3" noValidate>
        <FileField
          label={t('lectures.captions.file')}
          problem={form.problems.file}
          ref={fileInput}
          accept=".vtt,.srt,text/vtt"
          className="font-normal"
          disabled={form.busy}
          onFile={setFile}
        />
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <Field
              label={t('lectures.captions.language')}
              list={`${id}-languages`}
              placeholder={t('lectures.captions.languagePlaceholder')}
              maxLength={LIMITS.captionLanguageMax}
              disabled={form.busy}
              {...form.bind('language', language, (value) => {
                setLanguage(value);
                if (!labelTouched) setLabel(languageName(value.trim()));
              })}
            />
            <datalist id={`${id}-languages`}>
              {COMMON_LANGUAGES.map((tag) => (
                // Each language by its own name (an autonym), as a pupil who reads it would look for it.
                <option key={tag} value={tag} lang={tag} translate="no">
                  {languageName(tag)}
                </option>
              ))}
            </datalist>
          </div>
          <Field
            label={t('lectures.captions.label')}
            placeholder={t('lectures.captions.labelPlaceholder')}
            maxLength={LIMITS.captionLabelMax}
            disabled={form.busy}
            {...form.bind('label', label, (value) => {
              setLabel(value);
              setLabelTouched(true);
            })}
          />
        </div>
        <FormError message={error} />
        <button type="submit" className="btn btn-secondary self-start" disabled={form.busy}>
          {t(form.busy ? 'lectures.captions.adding' : 'lectures.captions.add')}
        </button>
      </form>
    </section>
  );
}
