import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, Spinner, TextField } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { LoginResponse, SignupResponse } from '../api/types';
import { navigate, safeNext, useLocation } from '../router';
import { useSession } from '../session';
import { AuthCard, FormError, MissingToken, PASSWORD_HINT, useForm, value } from './auth-form';

// Log-in, sign-up, and the one-time sign-in link mailed to a locked-out account.

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
