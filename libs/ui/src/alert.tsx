import type { ComponentChildren } from 'preact';

export interface AlertProps {
  tone?: 'info' | 'success' | 'warning' | 'danger';
  title?: string;
  children?: ComponentChildren;
  class?: string;
}

/**
 * A message box. Danger and warning are `role="alert"` (read out at once); info and success are a polite live region.
 * Styles: alert.css (only --svc-* tokens), loaded after tokens.css.
 */
export function Alert({ tone = 'info', title, children, class: className }: AlertProps) {
  const urgent = tone === 'danger' || tone === 'warning';
  return (
    <div class={`svc-alert svc-alert--${tone}${className ? ` ${className}` : ''}`} role={urgent ? 'alert' : 'status'}>
      {title ? <strong class="svc-alert__title">{title}</strong> : null}
      {children}
    </div>
  );
}
