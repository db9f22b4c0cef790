import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, Spinner, TextField } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { LoginResponse, SignupResponse } from '../api/types';
import { useTitle } from '../hooks';
import { navigate, safeNext, useLocation } from '../router';
import { useSession } from '../session';

const PASSWORD_HINT = `At least ${PORTAL_LIMITS.passwordMinLength} characters. A short sentence is easy to remember and hard to guess.`;

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

function AuthCard({
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

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert">
      {message}
    </p>
  );
}

function useForm() {
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

const value = (event: Event) => (event.currentTarget as HTMLInputElement).value;

export function LoginPage() {
  const { api, signedIn, state } = useSession();
  const location = useLocation();
  const next = safeNext(location.search.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();
  useEffect(() => {
    if (state.status === 'ready') navigate(next, { replace: true });
  }, [state.status]);
  return (
    <AuthCard
      title="Log in"
      footer={
        <>
          <a href="/forgot-password">Forgot your password?</a>
          <span>
            New here? <a href="/signup">Create an operator account</a>
          </span>
        </>
      }
    >
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void form.run(
            async () => {
              const answer = await api.post<LoginResponse>('/auth/login', { email, password }, { quiet401: true });
              await signedIn(answer);
              navigate(next, { replace: true });
            },
            (e) =>
              e instanceof ApiError && e.status === 401 ? 'The e-mail address or password is not correct.' : null,
          );
        }}
      >
        <FormError message={form.error} />
        <TextField
          label="E-mail"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onInput={(e) => setEmail(value(e))}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(value(e))}
        />
        <Button type="submit" busy={form.busy}>
          Log in
        </Button>
      </form>
    </AuthCard>
  );
}

export function SignupPage() {
  const { api, signedIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [operatorName, setOperatorName] = useState('');
  const [name, setName] = useState('');
  const form = useForm();
  return (
    <AuthCard
      title="Create your operator account"
      footer={
        <span>
          Already have an account? <a href="/login">Log in</a>
        </span>
      }
    >
      <p class="muted">
        You get a test key at once: the widget works in test mode on your own pages today. Live sales start when we
        approve your account.
      </p>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void form.run(async () => {
            const answer = await api.post<SignupResponse>(
              '/auth/signup',
              { email, password, operatorName, ...(name.trim() ? { name } : {}) },
              { quiet401: true },
            );
            await signedIn(answer);
            navigate('/', { replace: true });
          });
        }}
      >
        <FormError message={form.error} />
        <TextField
          label="Company name"
          name="operatorName"
          autoComplete="organization"
          required
          maxLength={PORTAL_LIMITS.maxOperatorName}
          value={operatorName}
          error={form.fields['operatorName']}
          onInput={(e) => setOperatorName(value(e))}
        />
        <TextField
          label="Your name (optional)"
          name="name"
          autoComplete="name"
          maxLength={PORTAL_LIMITS.maxPersonName}
          value={name}
          error={form.fields['name']}
          onInput={(e) => setName(value(e))}
        />
        <TextField
          label="Work e-mail"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          error={form.fields['email']}
          onInput={(e) => setEmail(value(e))}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={PORTAL_LIMITS.passwordMinLength}
          hint={PASSWORD_HINT}
          value={password}
          error={form.fields['password']}
          onInput={(e) => setPassword(value(e))}
        />
        <Button type="submit" busy={form.busy}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const { api } = useSession();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useForm();
  return (
    <AuthCard title="Reset your password" footer={<a href="/login">Back to log in</a>}>
      {sent ? (
        <p role="status">
          If an account exists for <strong>{email}</strong>, we have sent it a link to choose a new password. The link
          works for a limited time.
        </p>
      ) : (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void form.run(async () => {
              await api.post('/auth/password-reset', { email }, { quiet401: true });
              setSent(true);
            });
          }}
        >
          <p class="muted">Enter the e-mail address of your account; we will send it a link.</p>
          <FormError message={form.error} />
          <TextField
            label="E-mail"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onInput={(e) => setEmail(value(e))}
          />
          <Button type="submit" busy={form.busy}>
            Send the link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

function MissingToken({ what }: { what: string }) {
  return (
    <p role="alert" class="form-error">
      This {what} link is incomplete. Open the link from the e-mail again, or copy the whole address into the browser.
    </p>
  );
}

export function ResetPasswordPage() {
  const { api } = useSession();
  const token = useLocation().search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState(false);
  const form = useForm();
  return (
    <AuthCard title="Choose a new password" footer={<a href="/login">Back to log in</a>}>
      {!token ? (
        <MissingToken what="password reset" />
      ) : done ? (
        <p role="status">
          Your password has been changed and every other session was logged out.{' '}
          <a href="/login">Log in with the new password</a>.
        </p>
      ) : (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            if (password !== confirm) {
              form.setError('The two passwords are not the same.');
              return;
            }
            void form.run(
              async () => {
                await api.post('/auth/password-reset/confirm', { token, password }, { quiet401: true });
                setDone(true);
              },
              (e) =>
                e instanceof ApiError && e.code === 'invalid_token'
                  ? 'This link has expired or was already used. Ask for a new one on the “Forgot your password?” page.'
                  : null,
            );
          }}
        >
          <FormError message={form.error} />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PORTAL_LIMITS.passwordMinLength}
            hint={PASSWORD_HINT}
            value={password}
            error={form.fields['password']}
            onInput={(e) => setPassword(value(e))}
          />
          <TextField
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onInput={(e) => setConfirm(value(e))}
          />
          <Button type="submit" busy={form.busy}>
            Change password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

export function VerifyEmailPage() {
  const { api, refresh, state } = useSession();
  const token = useLocation().search.get('token') ?? '';
  const [status, setStatus] = useState<'working' | 'done' | 'failed'>('working');
  const [message, setMessage] = useState('');
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    api
      .post('/auth/verify-email', { token }, { quiet401: true })
      .then(async () => {
        setStatus('done');
        await refresh();
      })
      .catch((e) => {
        setStatus('failed');
        setMessage(
          e instanceof ApiError && e.code === 'invalid_token'
            ? 'This verification link has expired or was already used.'
            : errorMessage(e),
        );
      });
  }, [token]);
  const signedIn = state.status === 'ready';
  return (
    <AuthCard title={status === 'done' ? 'E-mail address verified' : 'Verify your e-mail'}>
      {!token ? (
        <MissingToken what="verification" />
      ) : status === 'working' ? (
        <Spinner label="Verifying…" />
      ) : status === 'done' ? (
        <p role="status">
          Thank you: your e-mail address is verified.{' '}
          {signedIn ? <a href="/">Go to the dashboard</a> : <a href="/login">Log in</a>}
        </p>
      ) : (
        <>
          <p role="alert" class="form-error">
            {message}
          </p>
          <p>
            {signedIn
              ? 'Send a new link from the banner on the dashboard.'
              : 'Log in and send a new link from the dashboard.'}
          </p>
          <p>{signedIn ? <a href="/">Go to the dashboard</a> : <a href="/login">Log in</a>}</p>
        </>
      )}
    </AuthCard>
  );
}

/** The one-time sign-in link mailed to an account locked by failed log-ins (docs/portal.md, throttling). */
export function SignInLinkPage() {
  const { api, signedIn } = useSession();
  const token = useLocation().search.get('token') ?? '';
  const [message, setMessage] = useState('');
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    api
      .post<LoginResponse>('/auth/login-link', { token }, { quiet401: true })
      .then(async (answer) => {
        await signedIn(answer);
        navigate('/settings', { replace: true });
      })
      .catch((e) =>
        setMessage(
          e instanceof ApiError && e.code === 'invalid_token'
            ? 'This sign-in link has expired or was already used.'
            : errorMessage(e),
        ),
      );
  }, [token]);
  return (
    <AuthCard title="Sign in with a link" footer={<a href="/forgot-password">Reset your password instead</a>}>
      {!token ? (
        <MissingToken what="sign-in" />
      ) : message ? (
        <p role="alert" class="form-error">
          {message}
        </p>
      ) : (
        <Spinner label="Signing you in…" />
      )}
    </AuthCard>
  );
}

export function AcceptInvitePage() {
  const { api, signedIn } = useSession();
  const token = useLocation().search.get('token') ?? '';
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();
  return (
    <AuthCard
      title="Join your team"
      footer={
        <span>
          Already have an account? <a href="/login">Log in</a>
        </span>
      }
    >
      {!token ? (
        <MissingToken what="invitation" />
      ) : (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void form.run(
              async () => {
                const answer = await api.post<LoginResponse>(
                  '/auth/invites/accept',
                  { token, password, ...(name.trim() ? { name } : {}) },
                  { quiet401: true },
                );
                await signedIn(answer);
                navigate('/', { replace: true });
              },
              (e) =>
                e instanceof ApiError && e.code === 'invalid_token'
                  ? 'This invitation has expired, was withdrawn or was already used. Ask your team owner for a new one.'
                  : null,
            );
          }}
        >
          <p class="muted">You were invited to an operator's account. Choose your password to accept.</p>
          <FormError message={form.error} />
          <TextField
            label="Your name (optional)"
            autoComplete="name"
            maxLength={PORTAL_LIMITS.maxPersonName}
            value={name}
            onInput={(e) => setName(value(e))}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PORTAL_LIMITS.passwordMinLength}
            hint={PASSWORD_HINT}
            value={password}
            error={form.fields['password']}
            onInput={(e) => setPassword(value(e))}
          />
          <Button type="submit" busy={form.busy}>
            Accept the invitation
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
