import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useMemo, useRef, useState } from 'preact/hooks';

export type ToastTone = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
}
export interface ToastApi {
  show(message: string, tone?: ToastTone): void;
  success(message: string): void;
  error(message: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/**
 * Short confirmations ("Key revoked") in a polite live region; errors go to an assertive one. Each region shows one
 * message, the newest. They leave after a few seconds and can be dismissed; nothing important lives only in a toast.
 */
export function ToastProvider({ children, timeoutMs = 6000 }: { children: ComponentChildren; timeoutMs?: number }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (message: string, tone: ToastTone = 'info') => {
      const id = next.current++;
      // One message per region: a new confirmation replaces the previous one ("Saved." then "Webhook URL saved." show
      // only the second); an error replaces the previous error and leaves the confirmation alone.
      setToasts((list) => [...list.filter((t) => (t.tone === 'error') !== (tone === 'error')), { id, tone, message }]);
      setTimeout(() => dismiss(id), tone === 'error' ? timeoutMs * 2 : timeoutMs);
    },
    [dismiss, timeoutMs],
  );
  const api = useMemo<ToastApi>(
    () => ({ show, success: (m) => show(m, 'success'), error: (m) => show(m, 'error') }),
    [show],
  );
  const render = (tone: 'polite' | 'assertive') =>
    toasts
      .filter((t) => (t.tone === 'error') === (tone === 'assertive'))
      .map((t) => (
        <div key={t.id} class={`svc-toast svc-toast--${t.tone}`}>
          <span>{t.message}</span>
          <button
            type="button"
            class="svc-toast__close"
            aria-label="Dismiss notification"
            onClick={() => dismiss(t.id)}
          >
            ×
          </button>
        </div>
      ));
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div class="svc-toasts">
        <div role="status" aria-live="polite">
          {render('polite')}
        </div>
        <div role="alert" aria-live="assertive">
          {render('assertive')}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() needs a <ToastProvider> above it');
  return api;
}
