import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Spinner, ToastProvider } from '@expedition/ui';
import { matchPath, navigate, onLinkClick, useLocation, type Params } from './router';
import { isPublicPath, loginPathFor, SessionProvider, useSession } from './session';
import { Shell } from './shell/shell';
import { LoginPage, SignupPage, SignInLinkPage } from './pages/login-pages';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage, AcceptInvitePage } from './pages/link-pages';
import { DashboardPage } from './pages/dashboard-page';
import { KeysPage } from './pages/keys-page';
import { OriginsPage } from './pages/origins-page';
import { IntegrationPage } from './pages/integration-page';
import { WebhooksPage, WebhookEventPage } from './pages/webhooks-page';
import { TeamPage } from './pages/team-page';
import { SettingsPage } from './pages/settings-page';
import { AuditPage } from './pages/audit-page';
import { NotFoundPage, ForbiddenPage } from './pages/not-found-page';

type Page = ComponentType<{ params: Params }>;
interface Route {
  path: string;
  page: Page;
  /** who may open it once signed in */
  area: 'operator' | 'admin' | 'any';
}

/** Admin pages are a separate chunk: operators never download them. */
function lazy(load: () => Promise<Page>): Page {
  let loaded: Page | null = null;
  return function LazyPage(props) {
    const [, setReady] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (!loaded)
        load().then(
          (page) => ((loaded = page), setReady((n) => n + 1)),
          () => setFailed(true),
        );
    }, []);
    if (loaded) {
      const Loaded = loaded;
      return <Loaded {...props} />;
    }
    if (failed) return <p role="alert">This page could not be loaded. Reload the page to try again.</p>;
    return <Spinner label="Loading…" />;
  };
}

const AdminOperators = lazy(() => import('./admin/admin-pages').then((m) => m.AdminOperatorsPage));
const AdminOperator = lazy(() => import('./admin/admin-pages').then((m) => m.AdminOperatorPage));
const AdminAudit = lazy(() => import('./admin/admin-pages').then((m) => m.AdminAuditPage));

export const ROUTES: Route[] = [
  { path: '/', page: DashboardPage, area: 'operator' },
  { path: '/keys', page: KeysPage, area: 'operator' },
  { path: '/origins', page: OriginsPage, area: 'operator' },
  { path: '/integration', page: IntegrationPage, area: 'operator' },
  { path: '/webhooks', page: WebhooksPage, area: 'operator' },
  { path: '/webhooks/events/:id', page: WebhookEventPage, area: 'operator' },
  { path: '/team', page: TeamPage, area: 'operator' },
  { path: '/audit', page: AuditPage, area: 'operator' },
  { path: '/settings', page: SettingsPage, area: 'any' },
  { path: '/admin', page: AdminOperators, area: 'admin' },
  { path: '/admin/operators/:id', page: AdminOperator, area: 'admin' },
  { path: '/admin/audit', page: AdminAudit, area: 'admin' },
];

const PUBLIC_ROUTES: { path: string; page: ComponentType }[] = [
  { path: '/login', page: LoginPage },
  { path: '/signup', page: SignupPage },
  { path: '/forgot-password', page: ForgotPasswordPage },
  { path: '/reset-password', page: ResetPasswordPage },
  { path: '/verify-email', page: VerifyEmailPage },
  { path: '/accept-invite', page: AcceptInvitePage },
  { path: '/sign-in-link', page: SignInLinkPage },
];

export function findRoute(pathname: string): { route: Route; params: Params } | null {
  for (const route of ROUTES) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function Routes() {
  const location = useLocation();
  const { state } = useSession();
  const pathname = location.pathname;

  if (isPublicPath(pathname)) {
    const Page = PUBLIC_ROUTES.find((r) => matchPath(r.path, pathname))?.page ?? NotFoundPage;
    return (
      <PublicFrame>
        <Page />
      </PublicFrame>
    );
  }
  if (state.status === 'loading')
    return (
      <div class="boot">
        <Spinner label="Loading the portal…" />
      </div>
    );
  if (state.status === 'anonymous') return <Redirect to={loginPathFor(pathname, window.location.search)} />;

  const isAdmin = state.session.user.role === 'provider_admin';
  const found = findRoute(pathname);
  let content: ComponentChildren;
  if (!found) content = <NotFoundPage />;
  else if (found.route.area === 'operator' && isAdmin)
    content = pathname === '/' ? <Redirect to="/admin" /> : <ForbiddenPage admin />;
  else if (found.route.area === 'admin' && !isAdmin) content = <ForbiddenPage />;
  else {
    const Page = found.route.page;
    content = <Page key={pathname} params={found.params} />;
  }
  return <Shell pathname={pathname}>{content}</Shell>;
}

function PublicFrame({ children }: { children: ComponentChildren }) {
  return (
    <div class="public">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="public-brand">
        <span class="brand-mark" aria-hidden="true">
          ◆
        </span>{' '}
        Expedition <span class="brand-sub">operator portal</span>
      </header>
      <main id="main" class="public-main">
        {children}
      </main>
    </div>
  );
}

export function App() {
  useEffect(() => {
    document.addEventListener('click', onLinkClick);
    return () => document.removeEventListener('click', onLinkClick);
  }, []);
  return (
    <ToastProvider>
      <SessionProvider>
        <Routes />
      </SessionProvider>
    </ToastProvider>
  );
}
