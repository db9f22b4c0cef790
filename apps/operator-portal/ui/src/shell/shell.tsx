import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Badge } from '@expedition/ui';
import { useSession, useSignedIn } from '../session';

interface NavItem {
  href: string;
  label: string;
}

const OPERATOR_NAV: NavItem[] = [
  { href: '/', label: 'Dashboard' },
  { href: '/keys', label: 'API keys' },
  { href: '/origins', label: 'Allowed origins' },
  { href: '/integration', label: 'Integration' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/team', label: 'Team' },
  { href: '/audit', label: 'Audit log' },
  { href: '/settings', label: 'Settings' },
];

const ADMIN_NAV: NavItem[] = [
  { href: '/admin', label: 'Operators' },
  { href: '/admin/audit', label: 'Audit log' },
  { href: '/settings', label: 'Settings' },
];

/** Which nav entry is the current page: exact for "/", prefix for the others (/webhooks/events/… → Webhooks). */
export function isCurrent(href: string, pathname: string): boolean {
  if (href === '/' || href === '/admin')
    return pathname === href || (href === '/admin' && pathname.startsWith('/admin/operators'));
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function Shell({ pathname, children }: { pathname: string; children: ComponentChildren }) {
  const session = useSignedIn();
  const { logOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  const isAdmin = session.user.role === 'provider_admin';
  const nav = isAdmin ? ADMIN_NAV : OPERATOR_NAV;
  const who = session.user.name || session.user.email;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={isAdmin ? '/admin' : '/'}>
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          Expedition
        </a>
        <span class="topbar-context">
          {isAdmin ? (
            <Badge tone="warning">Provider admin</Badge>
          ) : (
            <span class="operator-name">{session.operator?.name ?? ''}</span>
          )}
        </span>
        <button
          type="button"
          class="menu-toggle svc-btn svc-btn--secondary svc-btn--small"
          aria-expanded={menuOpen ? 'true' : 'false'}
          aria-controls="primary-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
      </header>
      <nav id="primary-nav" class={`sidenav${menuOpen ? ' sidenav--open' : ''}`} aria-label="Main">
        <div class="sidenav-inner">
          <ul>
            {nav.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={isCurrent(item.href, pathname) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
          <div class="sidenav-user">
            <span class="sidenav-user__name" title={session.user.email}>
              {who}
            </span>
            <span class="sidenav-user__role">
              {session.user.role === 'provider_admin' ? 'provider admin' : session.user.role}
            </span>
            <button type="button" class="svc-btn svc-btn--secondary svc-btn--small" onClick={() => void logOut()}>
              Log out
            </button>
          </div>
        </div>
      </nav>
      <main id="main" class="main">
        {children}
      </main>
    </div>
  );
}
