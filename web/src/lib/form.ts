import { ApiError } from '@api/client';
import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ZodType } from 'zod';
import { type FieldProblems, fieldProblems } from './form-check';

/**
 * One form's protocol. Before sending, the values are checked by the contract's own request schema (src/contract,
 * loaded by `loadSchemas` on first focus) and each field's problem is kept by its name, in the words the server's
 * 400 would give; a refusal's `fields` take their place, in the server's words. Busy is the mutation's `isPending`.
 */
export function useForm<Values, Answer, Variables = Values, Context = unknown>({
  schema,
  mutation,
  also,
  send = (values) => values as unknown as Variables,
}: {
  /** The contract's request schema for these values (keyed as the server's `fields` are); none for a file alone. */
  schema?: () => Promise<ZodType>;
  mutation: UseMutationResult<Answer, Error, Variables, Context>;
  /** Checks the server never sees (a second typing of a password): each field's problem. */
  also?: (values: Values) => FieldProblems;
  /** The mutation's variables for values that passed (with ids or renamed keys); the values themselves by default. */
  send?: (values: Values) => Variables;
}) {
  const [problems, setProblems] = useState<FieldProblems>({});
  const checks = useRef(0);
  const loaded = useRef<ZodType | null>(null);

  async function load(): Promise<ZodType | null> {
    try {
      if (schema) loaded.current ??= await schema();
    } catch {
      // The schema's code could not load (offline): the server checks the same rules anyway.
    }
    return loaded.current;
  }
  const check = (values: Values, rules: ZodType | null): FieldProblems => ({
    ...(rules ? fieldProblems(rules, values) : {}),
    ...also?.(values),
  });

  return {
    problems,
    busy: mutation.isPending,
    /** The form's `onFocus`: the schema is loaded before the first submit needs it. */
    prefetch: () => void load(),
    /** The values changed: a field said to be wrong is checked again (all such fields, or those named). */
    recheck(values: Values, fields?: string[]) {
      const shown = Object.keys(problems).filter((key) => !fields || fields.includes(key));
      if (shown.length === 0) return;
      const at = ++checks.current;
      void load().then((rules) => {
        const found = check(values, rules);
        if (at !== checks.current) return;
        setProblems((before) => {
          const after = { ...before };
          for (const key of shown) {
            if (found[key]) after[key] = found[key];
            else delete after[key];
          }
          return after;
        });
      });
    },
    /** Checks, then sends; nothing is sent while a field has a problem. Answers whether it was sent. */
    async submit(values: Values, options: MutateOptions<Answer, Error, Variables, Context> = {}): Promise<boolean> {
      const at = ++checks.current;
      // A new try forgets the last one's refusal (a form showing `mutation.error` shows this one's).
      if (mutation.isError) mutation.reset();
      // At once when the schema is in (the form's focus loaded it): busy shows in the same frame as the click.
      const found = check(values, loaded.current ?? (await load()));
      if (at !== checks.current) return false;
      setProblems(found);
      if (Object.keys(found).length > 0) return false;
      mutation.mutate(send(values), {
        ...options,
        onError: (error, ...rest) => {
          const fields = error instanceof ApiError && error.status > 0 ? error.body.fields : undefined;
          if (fields && typeof fields === 'object') setProblems(fields as FieldProblems);
          options.onError?.(error, ...rest);
        },
      });
      return true;
    },
    /** A text field's value, change and problem, by the name the server's `fields` use: spread on a `Field`. */
    bind: (name: string, value: string, onValue: (value: string) => void) => ({
      value,
      onValue,
      problem: problems[name],
    }),
    /** Forget every problem shown (a form emptied after a success, a dialog closed). */
    clear: () => setProblems({}),
  };
}
