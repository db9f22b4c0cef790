/** What a refused document shows: a short neutral notice, no form, no data. */
export function Refused() {
  return (
    <main class="svc-widget svc-refused">
      <p>This insurance widget isn't available here.</p>
    </main>
  );
}
