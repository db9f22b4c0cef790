import type { ComponentChildren } from 'preact';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** A short state label (active, expiring, revoked, test, live…). Its text carries the meaning, never its colour alone. */
export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  tone?: BadgeTone;
  children: ComponentChildren;
  title?: string;
}) {
  return (
    <span class={`svc-badge svc-badge--${tone}`} title={title}>
      {children}
    </span>
  );
}
