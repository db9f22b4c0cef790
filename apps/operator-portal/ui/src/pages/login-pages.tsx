import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useEffect, useState } from 'preact/hooks';
import { Spinner, TextField } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import type { LoginResponse, SignupResponse } from '../api/types';
import { navigate, safeNext, useLocation } from '../router';
import { useSession } from '../session';
import {
  AuthCard,
  AuthForm,
  LoginInstead,
  MissingToken,
  NewPasswordField,
  onInvalidToken,
  useForm,
  useLinkToken,
  useOnceWithToken,
  value,
} from './auth-form';

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
      <AuthForm
        form={form}
        submit="Log in"
        onSubmit={() =>
          void form.run(
            async () => {
              const answer = await api.post<LoginResponse>('/auth/login', { email, password }, { quiet401: true });
              await signedIn(answer);
              navigate(next, { replace: true });
            },
            (e) =>
              e instanceof ApiError && e.status === 401 ? 'The e-mail address or password is not correct.' : null,
          )
        }
      >
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
      </AuthForm>
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
    <AuthCard title="Create your operator account" footer={<LoginInstead />}>
      <p class="muted">
        You get a test key at once: the widget works in test mode on your own pages today. Live sales start when we
        approve your account.
      </p>
      <AuthForm
        form={form}
        submit="Create account"
        onSubmit={() =>
          void form.run(async () => {
            const answer = await api.post<SignupResponse>(
              '/auth/signup',
              { email, password, operatorName, ...(name.trim() ? { name } : {}) },
              { quiet401: true },
            );
            await signedIn(answer);
            navigate('/', { replace: true });
          })
        }
      >
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
        <NewPasswordField
          label="Password"
          name="password"
          value={password}
          error={form.fields['password']}
          onInput={setPassword}
        />
      </AuthForm>
    </AuthCard>
  );
}

export function SignInLinkPage() {
  const { api, signedIn } = useSession();
  const token = useLinkToken();
  const [message, setMessage] = useState('');
  useOnceWithToken(token, () => {
    api
      .post<LoginResponse>('/auth/login-link', { token }, { quiet401: true })
      .then(async (answer) => {
        await signedIn(answer);
        navigate('/settings', { replace: true });
      })
      .catch((e) =>
        setMessage(onInvalidToken('This sign-in link has expired or was already used.')(e) ?? errorMessage(e)),
      );
  });
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
