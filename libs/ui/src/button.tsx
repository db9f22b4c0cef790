import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'class'> & {
  variant?: ButtonVariant;
  /** Shows a spinner, disables the button and tells assistive tech it is busy. */
  busy?: boolean;
  small?: boolean;
  class?: string;
  children?: ComponentChildren;
};

/** The house button (`.svc-btn` of tokens.css); type defaults to "button" so it never submits a form by accident. */
export function Button({
  variant = 'primary',
  busy = false,
  small = false,
  class: extra,
  children,
  type = 'button',
  disabled,
  ...rest
}: ButtonProps) {
  const classes = [
    'svc-btn',
    variant === 'primary' ? '' : `svc-btn--${variant}`,
    small ? 'svc-btn--small' : '',
    extra ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button {...rest} type={type} class={classes} disabled={disabled || busy} aria-busy={busy ? 'true' : undefined}>
      {busy ? <Spinner size="small" /> : null}
      {children}
    </button>
  );
}
