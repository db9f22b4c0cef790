import type { ComponentChildren } from 'preact';
import { ConfirmDialog } from '@expedition/ui';
import { useSession } from '../session';

/** Runs one key action with the API keys page's busy state, then toasts `done` (or the error): keys-page.tsx. */
export type KeyAction = (action: () => Promise<void>, done: string) => Promise<void>;

/** Confirms revoking a key (publishable or secret): POST `<basePath>/<id>/revoke`, close, reload the list. */
export function RevokeKeyDialog({
  target,
  title,
  confirmLabel,
  basePath,
  done,
  act,
  busy,
  onClose,
  reload,
  children,
}: {
  target: { id: string } | null;
  title: string;
  confirmLabel: string;
  basePath: string;
  done: string;
  act: KeyAction;
  busy: boolean;
  onClose: () => void;
  reload: () => Promise<void>;
  children: ComponentChildren;
}) {
  const { api } = useSession();
  return (
    <ConfirmDialog
      open={target !== null}
      title={title}
      confirmLabel={confirmLabel}
      danger
      busy={busy}
      onCancel={onClose}
      onConfirm={() =>
        void act(async () => {
          await api.post(`${basePath}/${encodeURIComponent(target?.id ?? '')}/revoke`);
          onClose();
          await reload();
        }, done)
      }
    >
      {children}
    </ConfirmDialog>
  );
}
