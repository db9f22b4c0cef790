import { useTexts } from '../texts';

/** What a refused document shows: a short neutral notice, no form, no data. */
export function Refused() {
  const { t } = useTexts();
  return (
    <main class="svc-widget svc-refused">
      <p>{t.page.refused()}</p>
    </main>
  );
}
