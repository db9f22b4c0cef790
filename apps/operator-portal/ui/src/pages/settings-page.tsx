import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useState } from 'preact/hooks';
import { Button, ConfirmDialog, TextField, useToast } from '@expedition/ui';
import { ApiError, errorMessage } from '../api/client';
import { Dl, PageHeader, Section } from '../components';
import { useSession, useSignedIn } from '../session';
import { BrandingSection } from './branding-section';

export function SettingsPage() {
  const { api, logOut } = useSession();
  const session = useSignedIn();
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<{ current?: string; next?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const [confirmAll, setConfirmAll] = useState(false);
  const [leaving, setLeaving] = useState(false);
  return (
    <>
      <PageHeader title="Settings" />
      <Section title="Your account">
        <Dl
          items={[
            ['E-mail', session.user.email],
            ['Name', session.user.name ?? '—'],
            ['Role', session.user.role === 'provider_admin' ? 'provider admin' : session.user.role],
            ...(session.operator ? ([['Operator', session.operator.name]] as [string, string][]) : []),
            ['E-mail verified', session.user.emailVerified ? 'yes' : 'not yet'],
          ]}
        />
      </Section>
      {session.operator && session.user.role === 'owner' ? <BrandingSection /> : null}
      <Section title="Change password">
        <form
          class="stack narrow"
          onSubmit={async (event) => {
            event.preventDefault();
            setSaving(true);
            setError({});
            try {
              await api.post('/auth/password', { currentPassword: current, newPassword: next });
              toast.success('Password changed. Your other sessions were logged out.');
              setCurrent('');
              setNext('');
            } catch (e) {
              if (e instanceof ApiError && e.code === 'wrong_password')
                setError({ current: 'This is not your current password.' });
              else if (e instanceof ApiError && e.code === 'weak_password') setError({ next: e.message });
              else setError({ form: errorMessage(e) });
            } finally {
              setSaving(false);
            }
          }}
        >
          {error.form ? (
            <p class="form-error" role="alert">
              {error.form}
            </p>
          ) : null}
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            error={error.current}
            onInput={(e) => setCurrent((e.currentTarget as HTMLInputElement).value)}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PORTAL_LIMITS.passwordMinLength}
            hint={`At least ${PORTAL_LIMITS.passwordMinLength} characters.`}
            value={next}
            error={error.next}
            onInput={(e) => setNext((e.currentTarget as HTMLInputElement).value)}
          />
          <div>
            <Button type="submit" busy={saving}>
              Change password
            </Button>
          </div>
        </form>
      </Section>
      <Section title="Sessions">
        <p class="muted">
          Lost a laptop or used a shared computer? Log out of the portal on every device, this one included.
        </p>
        <Button variant="secondary" onClick={() => setConfirmAll(true)}>
          Log out everywhere
        </Button>
      </Section>
      <ConfirmDialog
        open={confirmAll}
        title="Log out everywhere?"
        confirmLabel="Log out everywhere"
        danger
        busy={leaving}
        onCancel={() => setConfirmAll(false)}
        onConfirm={async () => {
          setLeaving(true);
          await logOut(true);
        }}
      >
        <p>Every session of your account ends, including this one. You will need your password to log in again.</p>
      </ConfirmDialog>
    </>
  );
}
