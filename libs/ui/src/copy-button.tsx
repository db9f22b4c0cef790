import { useEffect, useState } from 'preact/hooks';

/** Copies through the async Clipboard API, falling back to a hidden textarea + execCommand where it is missing. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // permission refused or not a secure context: try the old way below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'svc-visually-hidden';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** "Copy" → "Copied" for two seconds (announced politely); `label` names what is copied ("Copy test key") for screen readers. */
export function CopyButton({ text, label, small = true }: { text: string; label: string; small?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button
        type="button"
        class={`svc-btn svc-btn--secondary svc-copy${small ? ' svc-btn--small' : ''}`}
        data-copied={state === 'copied' ? 'true' : undefined}
        onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
        {/* The accessible name starts with the visible word (WCAG 2.5.3) and says what is copied. */}
        <span class="svc-visually-hidden"> {label}</span>
      </button>
      <span class="svc-visually-hidden" role="status">
        {state === 'copied' ? `${label} copied` : state === 'failed' ? 'Copy failed; select the text and copy it' : ''}
      </span>
    </>
  );
}
