/** The provider's admin (role provider_admin): a separate lazy chunk, never downloaded by operators. */
import { PageHeader } from '../components';
import { useLocation } from '../router';
import { AuditView, useAuditLog } from '../pages/audit-page';

export { AdminOperatorsPage } from './operators-page';
export { AdminOperatorPage } from './operator-page';

export function AdminAuditPage() {
  const location = useLocation();
  const operatorId = location.search.get('operatorId');
  const log = useAuditLog(`/admin/audit${operatorId ? `?operatorId=${encodeURIComponent(operatorId)}` : ''}`);
  return (
    <>
      <PageHeader
        title="Audit log"
        lead="Every admin and key action, for every operator: who, what, when, before → after."
      />
      <AuditView log={log} showOperator />
    </>
  );
}
