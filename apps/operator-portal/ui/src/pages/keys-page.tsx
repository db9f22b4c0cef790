import { useState } from 'preact/hooks';
import { useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import { PageHeader } from '../components';
import { useSignedIn } from '../session';
import { PublishableKeysSection } from './publishable-keys-section';
import { SecretKeysSection } from './secret-keys-section';

export function KeysPage() {
  const session = useSignedIn();
  const toast = useToast();
  const isOwner = session.user.role === 'owner';
  const [busy, setBusy] = useState(false);

  /** Runs one key action with the page's busy state, then toasts `done` (or the error). */
  async function act(action: () => Promise<void>, done: string) {
    setBusy(true);
    try {
      await action();
      toast.success(done);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader
        title="API keys"
        lead="Publishable keys identify your site to the widget; they are public by design. Your allowed origins are what protects them."
      />
      <PublishableKeysSection act={act} busy={busy} />
      <SecretKeysSection act={act} busy={busy} isOwner={isOwner} />
    </>
  );
}
