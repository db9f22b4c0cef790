import type { ComponentChildren } from 'preact';

/** What a list shows when it has nothing yet: what the thing is, and the one action that creates the first one. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ComponentChildren;
  action?: ComponentChildren;
}) {
  return (
    <div class="svc-empty">
      <p class="svc-empty__title">{title}</p>
      {children ? <div class="svc-empty__body">{children}</div> : null}
      {action ? <div class="svc-empty__action">{action}</div> : null}
    </div>
  );
}
