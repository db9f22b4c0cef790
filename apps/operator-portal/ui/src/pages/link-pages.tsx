import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Spinner, TextField } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { LoginResponse } from '../api/types';
import { navigate } from '../router';
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

// The pages behind e-mailed links: password reset (and its request), address verification, team invitations.

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
        <AuthForm
          form={form}
          submit="Send the link"
          intro={<p class="muted">Enter the e-mail address of your account; we will send it a link.</p>}
          onSubmit={() =>
            void form.run(async () => {
              await api.post('/auth/password-reset', { email }, { quiet401: true });
              setSent(true);
            })
          }
        >
          <TextField
            label="E-mail"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onInput={(e) => setEmail(value(e))}
          />
        </AuthForm>
      )}
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  const { api } = useSession();
  const token = useLinkToken();
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
        <AuthForm
          form={form}
          submit="Change password"
          onSubmit={() => {
            if (password !== confirm) {
              form.setError('The two passwords are not the same.');
              return;
            }
            void form.run(async () => {
              await api.post('/auth/password-reset/confirm', { token, password }, { quiet401: true });
              setDone(true);
            }, onInvalidToken('This link has expired or was already used. Ask for a new one on the “Forgot your password?” page.'));
          }}
        >
          <NewPasswordField
            label="New password"
            value={password}
            error={form.fields['password']}
            onInput={setPassword}
          />
          <TextField
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onInput={(e) => setConfirm(value(e))}
          />
        </AuthForm>
      )}
    </AuthCard>
  );
}

export function VerifyEmailPage() {
  const { api, refresh, state } = useSession();
  const token = useLinkToken();
  const [status, setStatus] = useState<'working' | 'done' | 'failed'>('working');
  const [message, setMessage] = useState('');
  useOnceWithToken(token, () => {
    api
      .post('/auth/verify-email', { token }, { quiet401: true })
      .then(async () => {
        setStatus('done');
        await refresh();
      })
      .catch((e) => {
        setStatus('failed');
        setMessage(onInvalidToken('This verification link has expired or was already used.')(e) ?? errorMessage(e));
      });
  });
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
export function AcceptInvitePage() {
  const { api, signedIn } = useSession();
  const token = useLinkToken();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();
  return (
    <AuthCard title="Join your team" footer={<LoginInstead />}>
      {!token ? (
        <MissingToken what="invitation" />
      ) : (
        <AuthForm
          form={form}
          submit="Accept the invitation"
          intro={<p class="muted">You were invited to an operator's account. Choose your password to accept.</p>}
          onSubmit={() =>
            void form.run(async () => {
              const answer = await api.post<LoginResponse>(
                '/auth/invites/accept',
                { token, password, ...(name.trim() ? { name } : {}) },
                { quiet401: true },
              );
              await signedIn(answer);
              navigate('/', { replace: true });
            }, onInvalidToken('This invitation has expired, was withdrawn or was already used. Ask your team owner for a new one.'))
          }
        >
          <TextField
            label="Your name (optional)"
            autoComplete="name"
            maxLength={PORTAL_LIMITS.maxPersonName}
            value={name}
            onInput={(e) => setName(value(e))}
          />
          <NewPasswordField label="Password" value={password} error={form.fields['password']} onInput={setPassword} />
        </AuthForm>
      )}
    </AuthCard>
  );
}
