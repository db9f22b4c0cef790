/** Page-level pieces of the portal (the generic ones live in @expedition/ui). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { CopyButton, Spinner } from '@expedition/ui';
import type { PagedList, Resource } from './hooks';
import { useTitle } from './hooks';
import { Button } from '@expedition/ui';

/** The page's h1 (focused after navigation so screen readers announce the new page), a lead line and actions. */
export function PageHeader({
  title,
  lead,
  actions,
}: {
  title: string;
  lead?: ComponentChildren;
  actions?: ComponentChildren;
}) {
  useTitle(title);
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <header class="page-header">
      <div>
        <h1 ref={ref} tabIndex={-1}>
          {title}
        </h1>
        {lead ? <p class="lead">{lead}</p> : null}
      </div>
      {actions ? <div class="page-actions">{actions}</div> : null}
    </header>
  );
}

export function Section({
  title,
  children,
  actions,
  id,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-title`;
  return (
    <section class="section" aria-labelledby={headingId}>
      <div class="section-head">
        <h2 id={headingId}>{title}</h2>
        {actions ? <div class="section-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export function Banner({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'danger' | 'success';
  title?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`banner banner--${tone}`} role={tone === 'danger' ? 'alert' : undefined}>
      {title ? <strong class="banner-title">{title}</strong> : null}
      <div>{children}</div>
    </div>
  );
}

export function ErrorNote({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div class="banner banner--danger" role="alert">
      <div>{message}</div>
      {onRetry ? (
        <Button variant="secondary" small onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/** Loading → spinner, error → message with retry, data → children(data). */
export function Loaded<T>({
  resource,
  label,
  children,
}: {
  resource: Resource<T>;
  label: string;
  children: (data: T) => ComponentChildren;
}) {
  if (resource.data !== undefined) return <>{children(resource.data)}</>;
  if (resource.error) return <ErrorNote message={resource.error} onRetry={() => void resource.reload()} />;
  return (
    <div class="loading">
      <Spinner label={`Loading ${label}…`} />
    </div>
  );
}

/** A cursor-paged list: its error with retry, a spinner until the first page, then children(items) and "load more". */
export function Paged<T>({
  list,
  loadingLabel,
  moreLabel,
  children,
}: {
  list: PagedList<T>;
  loadingLabel: string;
  moreLabel: string;
  children: (items: T[]) => ComponentChildren;
}) {
  return (
    <>
      {list.error ? <ErrorNote message={list.error} onRetry={() => void list.reload()} /> : null}
      {list.items === null ? (
        list.error ? null : (
          <Spinner label={loadingLabel} />
        )
      ) : (
        <>
          {children(list.items)}
          {list.cursor ? (
            <div class="more">
              <Button variant="secondary" busy={list.loading} onClick={() => void list.more()}>
                {moreLabel}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}

/** A code sample with its own Copy button; the <pre> is focusable so keyboard users can scroll it. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div class="code-block">
      <div class="code-block__bar">
        <span class="code-block__label">{label}</span>
        <CopyButton text={code} label={label} />
      </div>
      <pre tabIndex={0} aria-label={label}>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** A secret or key in monospace with a copy button. */
export function Secret({ value, label }: { value: string; label: string }) {
  return (
    <div class="secret">
      <code class="mono secret__value">{value}</code>
      <CopyButton text={value} label={label} />
    </div>
  );
}

export function Dl({ items }: { items: [ComponentChildren, ComponentChildren][] }) {
  return (
    <dl class="dl">
      {items.map(([term, value], index) => (
        <div key={index}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A horizontally scrollable table frame. Focusable and named, so keyboard users can scroll a wide table at 390 px
 * (WCAG 2.1.1; axe: scrollable-region-focusable).
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** A stacked table (one card a row on narrow screens) in its labelled scroll region: the header cells and the rows. */
export function StackTable({
  label,
  head,
  children,
}: {
  label: string;
  head: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <TableWrap label={label}>
      <table class="table table--stack">
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}

/** The header cell of a row-actions column, named for screen readers only. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span class="svc-visually-hidden">Actions</span>
    </th>
  );
}
