import { PORTAL_LIMITS } from '@expedition/contracts/rules';
import { useEffect, useState } from 'preact/hooks';
import { Button, TextField, useToast } from '@expedition/ui';
import { errorMessage } from '../api/client';
import type { PortalOperatorResponse } from '../api/types';
import { Section } from '../components';
import { useResource } from '../hooks';
import { useSession } from '../session';

/**
 * Owners: the brand colour and logo of the checkout pages (PUT /operator/branding, docs/portal-api.md). The server
 * checks both (a colour white text reads on at 4.5:1, an https logo) and says why it refuses one.
 */
export function BrandingSection() {
  const { api } = useSession();
  const toast = useToast();
  const operator = useResource<PortalOperatorResponse>('/operator');
  const [color, setColor] = useState('');
  const [logo, setLogo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const op = operator.data?.operator;
    if (!op) return;
    setColor(op.brandColor ?? '');
    setLogo(op.logoUrl ?? '');
  }, [operator.data]);
  return (
    <Section title="Checkout page branding">
      <p class="muted">
        Your name is always shown on the checkout page. Optionally add your colour (buttons and links, white text on it
        must stay readable) and a logo (https, shown at most 160×40 px).
      </p>
      <form
        class="stack narrow"
        onSubmit={async (event) => {
          event.preventDefault();
          setSaving(true);
          setError(null);
          try {
            await api.put('/operator/branding', { brandColor: color.trim() || null, logoUrl: logo.trim() || null });
            toast.success('Branding saved.');
            await operator.reload();
          } catch (e) {
            setError(errorMessage(e));
          } finally {
            setSaving(false);
          }
        }}
      >
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <TextField
          label="Brand colour"
          hint="A hex colour like #0b5cad; empty: the default blue."
          maxLength={PORTAL_LIMITS.maxBrandColor}
          value={color}
          onInput={(e) => setColor((e.currentTarget as HTMLInputElement).value)}
        />
        <TextField
          label="Logo URL"
          type="url"
          hint="An https address of your logo; empty: no logo."
          maxLength={PORTAL_LIMITS.maxLogoUrl}
          value={logo}
          onInput={(e) => setLogo((e.currentTarget as HTMLInputElement).value)}
        />
        <div>
          <Button type="submit" busy={saving}>
            Save branding
          </Button>
        </div>
      </form>
    </Section>
  );
}
