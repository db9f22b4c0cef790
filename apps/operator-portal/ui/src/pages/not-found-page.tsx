import { PageHeader } from '../components';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. <a href="/">Go to the dashboard</a>.
      </p>
    </>
  );
}

export function ForbiddenPage({ admin = false }: { admin?: boolean }) {
  return (
    <>
      <PageHeader title="Not available to your account" />
      <p>
        {admin
          ? 'Provider admins manage operators from the admin pages.'
          : 'This page is for the provider’s administrators.'}{' '}
        <a href={admin ? '/admin' : '/'}>{admin ? 'Go to operators' : 'Go to the dashboard'}</a>.
      </p>
    </>
  );
}
