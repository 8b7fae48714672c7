import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { Field } from '@ui/Field';
import { QueryState } from '@ui/QueryState';
import { theirWords } from '@ui/TheirWords';
import { type FormEvent, useState } from 'react';
import {
  type Platform,
  useAddPlatform,
  useLtiPlatforms,
  useLtiTool,
  useRegistrationUrl,
  useRemovePlatform,
} from '../api/lti';

const contract = () => loadSchemas(() => import('@contract/lti'));

const FIELDS = ['name', 'issuer', 'clientId', 'authLoginUrl', 'authTokenUrl', 'jwksUrl'] as const;
type Values = Record<(typeof FIELDS)[number] | 'deploymentIds', string>;
const EMPTY: Values = {
  name: '',
  issuer: '',
  clientId: '',
  authLoginUrl: '',
  authTokenUrl: '',
  jwksUrl: '',
  deploymentIds: '',
};
/** Each field's label, read when drawn (the messages load after this module). */
const labels = (): Record<keyof Values, string> => ({
  name: t('admin.lms.field.name'),
  issuer: t('admin.lms.field.issuer'),
  clientId: t('admin.lms.field.clientId'),
  authLoginUrl: t('admin.lms.field.authLoginUrl'),
  authTokenUrl: t('admin.lms.field.authTokenUrl'),
  jwksUrl: t('admin.lms.field.jwksUrl'),
  deploymentIds: t('admin.lms.field.deploymentIds'),
});
const asList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** The LMSs this server is an LTI tool for (docs/lti.md): our URLs, Dynamic Registration, the registered ones. */
export function AdminLms() {
  const platforms = useLtiPlatforms();
  const remove = useRemovePlatform();
  const [removing, setRemoving] = useState<Platform | null>(null);
  return (
    <section aria-labelledby="admin-lms" className="flex flex-col gap-6">
      <h2 id="admin-lms" className="sr-only">
        {t('admin.tab.lms')}
      </h2>
      <div className="flex flex-col gap-3">
        <h3 className="font-semibold text-slate-900">{t('admin.lms.toolUrlsTitle')}</h3>
        <ToolUrls />
        <RegistrationUrl />
      </div>
      <h3 className="-mb-3 font-semibold text-slate-900">{t('admin.lms.listTitle')}</h3>
      <QueryState
        query={platforms}
        label={t('admin.lms.what')}
        empty={<p className="text-sm text-slate-600">{t('admin.lms.empty')}</p>}
      >
        {(rows) => (
          <ul className="flex flex-col gap-3">
            {rows.map((platform) => (
              <li key={platform._id} className="card flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words text-slate-900" translate="no">
                    {platform.name}
                  </p>
                  <p className="text-sm break-all text-slate-600" translate="no">
                    {platform.issuer} · {platform.clientId}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-danger h-9 self-start px-3 text-sm sm:self-auto pointer-coarse:h-11"
                  onClick={() => setRemoving(platform)}
                  aria-label={t('admin.lms.removeLabel', { name: platform.name })}
                >
                  {t('common.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <AddPlatform />
      <ConfirmDialog
        open={removing !== null}
        title={t('admin.lms.removeLabel', { name: removing?.name ?? '' })}
        heading={theirWords(t('admin.lms.removeLabel', { name: removing?.name ?? '' }))}
        confirmLabel={t('common.remove')}
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => {
              toast.success(t('admin.lms.removed'));
              setRemoving(null);
            },
          })
        }
      >
        {t('admin.lms.removeText')}
      </ConfirmDialog>
    </section>
  );
}

function ToolUrls() {
  const tool = useLtiTool();
  return (
    <QueryState query={tool} label={t('admin.lms.toolUrls')}>
      {(urls) => (
        <dl className="card grid gap-x-4 gap-y-1 p-4 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-700">{t('admin.lms.loginUrl')}</dt>
          <dd className="break-all text-slate-600" translate="no">
            {urls.loginUrl}
          </dd>
          <dt className="font-medium text-slate-700">{t('admin.lms.launchUrl')}</dt>
          <dd className="break-all text-slate-600" translate="no">
            {urls.launchUrl}
          </dd>
          <dt className="font-medium text-slate-700">{t('admin.lms.jwksUrl')}</dt>
          <dd className="break-all text-slate-600" translate="no">
            {urls.jwksUrl}
          </dd>
        </dl>
      )}
    </QueryState>
  );
}

function RegistrationUrl() {
  const make = useRegistrationUrl();
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className="btn btn-secondary self-start"
        disabled={make.isPending}
        onClick={() => make.mutate()}
      >
        {t('admin.lms.makeRegistrationUrl')}
      </button>
      {make.data && (
        <Field
          label={t('admin.lms.registrationUrl')}
          hint={t('admin.lms.registrationHint')}
          value={make.data.url}
          readOnly
          translate="no"
        />
      )}
    </div>
  );
}

function AddPlatform() {
  const [values, setValues] = useState<Values>(EMPTY);
  const form = useForm({
    schema: async () => (await contract()).platformBody,
    mutation: useAddPlatform(),
  });
  const toBody = (typed: Values) => ({ ...typed, deploymentIds: asList(typed.deploymentIds) });
  const field = (name: keyof Values) =>
    form.bind(name, values[name], (value) => {
      const next = { ...values, [name]: value };
      setValues(next);
      form.recheck(toBody(next), [name]);
    });
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    await form.submit(toBody(values), {
      onSuccess: () => {
        toast.success(t('admin.lms.added'));
        setValues(EMPTY);
        form.clear();
      },
    });
  }
  const label = labels();
  return (
    <form onSubmit={onSubmit} onFocus={form.prefetch} className="card flex flex-col gap-4 p-4" noValidate>
      <h3 className="font-semibold text-slate-900">{t('admin.lms.addTitle')}</h3>
      {FIELDS.map((name) => (
        <Field key={name} label={label[name]} {...field(name)} translate="no" />
      ))}
      <Field label={label.deploymentIds} hint={t('admin.lms.deploymentHint')} {...field('deploymentIds')} />
      <button type="submit" className="btn btn-primary self-start" disabled={form.busy}>
        {t(form.busy ? 'common.saving' : 'admin.lms.add')}
      </button>
    </form>
  );
}
