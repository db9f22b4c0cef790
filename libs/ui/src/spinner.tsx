/** A small rotating ring. With a label it is announced (role=status); without one it is decorative. */
export function Spinner({ label, size = 'normal' }: { label?: string; size?: 'small' | 'normal' }) {
  const ring = <span class={`svc-spinner${size === 'small' ? ' svc-spinner--small' : ''}`} aria-hidden="true" />;
  if (!label) return ring;
  return (
    <span class="svc-spinner-wrap" role="status">
      {ring}
      <span>{label}</span>
    </span>
  );
}
