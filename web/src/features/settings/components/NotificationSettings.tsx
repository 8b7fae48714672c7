import { ApiError } from '@api/client';
import { useForm } from '@lib/form';
import { toast } from '@lib/toast';
import { LoadError } from '@ui/QueryState';
import { type FormEvent, useEffect, useState } from 'react';
import { type EmailChoice, useNotificationPrefs, useSaveNotificationPrefs } from '../api/notification-prefs';

const CHOICES: { value: EmailChoice; label: string; hint: string }[] = [
  { value: 'every', label: 'Every event', hint: 'An email for each new lecture, comment on your lectures, or reply.' },
  { value: 'daily', label: 'Daily digest', hint: 'One email a day with everything new, only when there is something.' },
  { value: 'none', label: 'No emails', hint: 'Nothing by email. New things still show a dot on the class.' },
];

/**
 * Settings: which notification emails the person gets. The form stays disabled until the saved choice has loaded
 * (a failed load shows Retry, never a default a save could overwrite).
 */
export function NotificationSettings() {
  const prefs = useNotificationPrefs();
  // No schema to load: the choice is one of three radios, and the server's refusal still comes back through it.
  const form = useForm({ mutation: useSaveNotificationPrefs() });
  const [choice, setChoice] = useState<EmailChoice | null>(null);
  const [saved, setSaved] = useState(false);
  const loaded = prefs.data?.email;
  useEffect(() => {
    if (loaded) setChoice((current) => current ?? loaded);
  }, [loaded]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!choice) return;
    setSaved(false);
    void form.submit(
      { email: choice },
      {
        onSuccess: () => {
          setSaved(true);
          toast.success('Email notifications saved');
        },
        onError: (error) =>
          toast.error('Could not save your email notifications. Please try again.', {
            description: error instanceof ApiError && error.status ? error.message : undefined,
          }),
      },
    );
  }

  const ready = choice !== null;
  return (
    <section className="card mt-6 p-6" aria-labelledby="email-notifications-title">
      <h2 id="email-notifications-title" className="text-lg font-semibold text-slate-900">
        Email notifications
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        New lectures in your classes, comments on your lectures, and replies.
      </p>
      {prefs.isError && !ready ? (
        <div className="mt-4">
          <LoadError label="your email notifications" query={prefs} />
        </div>
      ) : (
        <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-4" aria-busy={!ready}>
          <fieldset className="flex flex-col gap-3" disabled={!ready || form.busy}>
            <legend className="sr-only">Send me</legend>
            {CHOICES.map((option) => (
              <label
                key={option.value}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50"
              >
                <input
                  type="radio"
                  name="email-notifications"
                  value={option.value}
                  checked={choice === option.value}
                  onChange={() => {
                    setChoice(option.value);
                    setSaved(false);
                  }}
                  className="mt-1 h-4 w-4 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium text-slate-900">{option.label}</span>
                  <span className="block text-sm text-slate-600">{option.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className="btn btn-primary" disabled={!ready || form.busy}>
              {form.busy ? 'Saving...' : ready ? 'Save' : 'Loading...'}
            </button>
            <p role="status" className="text-sm text-green-700">
              {saved ? 'Saved.' : ''}
            </p>
          </div>
        </form>
      )}
    </section>
  );
}
