import { useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { validate, type FieldErrors } from '../lib/form-errors.js';

/**
 * A form's submit as the auth pages do it: the form's values are checked against `schema` and
 * each field shows its first message (nothing is sent while one is wrong); valid data goes to
 * `send`, with `pending` set until it settles, and a thrown error to `failed`.
 */
export function useFormSubmit<T>(options: {
  schema: ZodType<T>;
  values: (form: FormData) => unknown;
  send: (data: T) => Promise<void>;
  failed: (err: unknown) => void;
}): { errors: FieldErrors; pending: boolean; onSubmit: (e: FormEvent<HTMLFormElement>) => void } {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const result = validate(options.schema, options.values(new FormData(e.currentTarget)));
    setErrors(result.errors ?? {});
    if (!result.data) return;
    setPending(true);
    void options
      .send(result.data)
      .catch(options.failed)
      .finally(() => setPending(false));
  };
  return { errors, pending, onSubmit };
}
