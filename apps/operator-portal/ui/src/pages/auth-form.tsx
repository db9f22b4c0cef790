import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, TextField } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import { useTitle } from '../hooks';
import { useLocation } from '../router';

// What the sign-up, log-in and e-mailed-link pages share: the card, the form state and error display.

export const PASSWORD_HINT = `At least ${PORTAL_LIMITS.passwordMinLength} characters. A short sentence is easy to remember and hard to guess.`;

/** Field errors from a 400's details (`[{path, message}]`), keyed by the field name. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  const details = Array.isArray(error.details) ? (error.details as { path?: unknown; message?: unknown }[]) : [];
  for (const item of details) {
    if (typeof item?.path === 'string' && typeof item.message === 'string' && !out[item.path])
      out[item.path] = item.message;
  }
  if (error.code === 'weak_password' && !out['password']) out['password'] = error.message;
  return out;
}

export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ComponentChildren;
  footer?: ComponentChildren;
}) {
  useTitle(title);
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus({ preventScroll: true }), [title]);
  return (
    <div class="auth-card svc-card">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children}
      {footer ? <div class="auth-footer">{footer}</div> : null}
    </div>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert">
      {message}
    </p>
  );
}

export function useForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  async function run(action: () => Promise<void>, describe?: (e: unknown) => string | null) {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      await action();
    } catch (e) {
      const perField = fieldErrors(e);
      setFields(perField);
      setError(describe?.(e) ?? errorMessage(e));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, fields, run, setError };
}

/** The value of the input an event came from. */
export const value = (event: Event) => (event.currentTarget as HTMLInputElement).value;

export function MissingToken({ what }: { what: string }) {
  return (
    <p role="alert" class="form-error">
      This {what} link is incomplete. Open the link from the e-mail again, or copy the whole address into the browser.
    </p>
  );
}

/** The `token` of an e-mailed link's query ('' when absent). */
export const useLinkToken = (): string => useLocation().search.get('token') ?? '';

/** A `describe` for useForm.run (or a message of its own): `message` when the API refused the link's token. */
export const onInvalidToken =
  (message: string) =>
  (e: unknown): string | null =>
    e instanceof ApiError && e.code === 'invalid_token' ? message : null;

/** Runs `effect` once, when the page has a token (the pages that act on an e-mailed link as soon as they open). */
export function useOnceWithToken(token: string, effect: () => void) {
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    effect();
  }, [token]);
}

/** The stacked form of the auth pages: an optional intro, the form error, the fields and the submit button. */
export function AuthForm({
  form,
  submit,
  onSubmit,
  intro,
  children,
}: {
  form: { busy: boolean; error: string | null };
  submit: string;
  onSubmit: () => void;
  intro?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {intro}
      <FormError message={form.error} />
      {children}
      <Button type="submit" busy={form.busy}>
        {submit}
      </Button>
    </form>
  );
}

/** A new password: required, at least the minimum length, with the hint and the API's error for it. */
export function NewPasswordField(props: {
  label: string;
  name?: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  return (
    <TextField
      label={props.label}
      type="password"
      {...(props.name === undefined ? {} : { name: props.name })}
      autoComplete="new-password"
      required
      minLength={PORTAL_LIMITS.passwordMinLength}
      hint={PASSWORD_HINT}
      value={props.value}
      error={props.error}
      onInput={(e) => props.onInput(value(e))}
    />
  );
}

/** The footer of the pages for people without an account yet. */
export function LoginInstead() {
  return (
    <span>
      Already have an account? <a href="/login">Log in</a>
    </span>
  );
}
