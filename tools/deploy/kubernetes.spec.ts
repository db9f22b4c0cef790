import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { noteSkippedSuite, servicesRequired } from '@expedition/platform/testing';
import { APPS, ROOT } from './src/app-artifacts';
import { checkManifests, type Expectations, type K8sObject } from './src/kubernetes-rules';

/**
 * Issue 12 §3: every overlay of deploy/kubernetes renders with `kubectl kustomize`, every object validates against
 * the Kubernetes schemas (kubernetes-models), and our rules hold (probes, non-root, read-only root filesystem,
 * resources, no inlined secrets, a PDB and an HPA per app, the migration Job, the Ingress of every public host).
 */
const KUSTOMIZE_ROOT = path.join(ROOT, 'deploy', 'kubernetes');
const overlays = readdirSync(path.join(KUSTOMIZE_ROOT, 'overlays')).sort();
const kubectl = process.env['KUBECTL'] || 'kubectl';
const kubectlVersion = spawnSync(kubectl, ['version', '--client'], { encoding: 'utf8' });
const kubectlMissing = kubectlVersion.status !== 0;

const expected: Expectations = {
  apps: APPS.map((a) => a.app),
  publicRoutes: [
    { service: 'quote-api' },
    { service: 'embed-api' },
    { service: 'widget-iframe' },
    { service: 'operator-portal' },
    { service: 'webhook-dispatcher', path: '/processor/events' },
  ],
};

function render(dir: string): K8sObject[] {
  const result = spawnSync(kubectl, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${path.relative(ROOT, dir)} failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject)
    .filter(Boolean);
}

/** kubernetes-models' class for an apiVersion/kind (`apps/v1` + `Deployment` → kubernetes-models/apps/v1/Deployment). */
async function modelOf(o: K8sObject): Promise<{ validate(): void } | undefined> {
  const modulePath = `kubernetes-models/${o.apiVersion}/${o.kind}`;
  const mod = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = mod[o.kind];
  return Model ? new Model(o) : undefined;
}

function suite(): jest.Describe {
  if (!kubectlMissing) return describe;
  const reason = `kubectl not found (${kubectl}): cannot render the kustomize overlays`;
  if (servicesRequired()) throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  noteSkippedSuite(reason);
  return describe.skip;
}

suite()('deploy/kubernetes', () => {
  it('has the dev and production overlays', () => {
    expect(overlays).toEqual(expect.arrayContaining(['dev', 'production']));
  });

  describe.each(overlays)('overlays/%s', (overlay) => {
    let objects: K8sObject[];
    beforeAll(() => {
      objects = render(path.join(KUSTOMIZE_ROOT, 'overlays', overlay));
    });

    it('renders, and every object validates against the Kubernetes schemas', async () => {
      expect(objects.length).toBeGreaterThan(20);
      const invalid: string[] = [];
      for (const o of objects) {
        const model = await modelOf(o);
        if (!model) {
          invalid.push(`${o.apiVersion} ${o.kind}/${o.metadata.name}: unknown to kubernetes-models`);
          continue;
        }
        try {
          model.validate();
        } catch (err) {
          invalid.push(`${o.kind}/${o.metadata.name}: ${(err as Error).message}`);
        }
      }
      expect(invalid).toEqual([]);
    });

    it('meets our rules', () => {
      expect(checkManifests(objects, expected)).toEqual([]);
    });

    it('puts everything in its own namespace and references the secrets it never inlines', () => {
      const namespaced = objects.filter((o) => o.kind !== 'Namespace');
      const namespaces = new Set(namespaced.map((o) => o.metadata.namespace));
      expect(namespaces.size).toBe(1);
      expect(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual([...namespaces]);
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
      type Env = { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } };
      const containers = objects.flatMap(
        (o) =>
          (o.spec as { template?: { spec?: { containers: Array<{ name: string; env?: Env[] }> } } } | undefined)
            ?.template?.spec?.containers ?? [],
      );
      const databaseRefs = containers.filter((c) =>
        c.env?.some(
          (e) =>
            e.name === 'DATABASE_URL' &&
            e.valueFrom?.secretKeyRef?.name === 'expedition-secrets' &&
            !e.valueFrom.secretKeyRef.optional,
        ),
      );
      expect(databaseRefs.map((c) => c.name).sort()).toEqual([...APPS.map((a) => a.app), 'migrate'].sort());
    });

    it('the public URLs of the config are the Ingress hosts', () => {
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('expedition-config'))!;
      const hosts = new Set(
        objects
          .filter((o) => o.kind === 'Ingress')
          .flatMap((i) => ((i.spec as { rules: Array<{ host: string }> }).rules ?? []).map((r) => r.host)),
      );
      for (const key of ['QUOTE_API_URL', 'EMBED_URL', 'WIDGET_URL', 'PORTAL_URL']) {
        expect([key, hosts.has(new URL(config.data![key]!).host)]).toEqual([key, true]);
      }
    });
  });

  it('production: NODE_ENV=production, Stripe, TLS on every public host, images from a registry', () => {
    const objects = render(path.join(KUSTOMIZE_ROOT, 'overlays', 'production'));
    const config = objects.find((o) => o.kind === 'ConfigMap')!;
    expect(config.data).toMatchObject({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'stripe' });
    const ingress = objects.find((o) => o.kind === 'Ingress')!.spec as {
      rules: Array<{ host: string }>;
      tls?: Array<{ hosts: string[]; secretName: string }>;
    };
    const tlsHosts = (ingress.tls ?? []).flatMap((t) => t.hosts);
    expect(ingress.rules.map((r) => r.host).filter((h) => !tlsHosts.includes(h))).toEqual([]);
  });
});

describe('schema validation (can fail)', () => {
  it('kubernetes-models refuses a Deployment without a pod template and an HPA with a string replica count', async () => {
    const deployment = await modelOf({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { selector: {} },
    });
    expect(() => deployment!.validate()).toThrow(/template/);
    const hpa = await modelOf({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 'ten' },
    });
    expect(() => hpa!.validate()).toThrow(/maxReplicas/);
  });
});

describe('checkManifests (can fail)', () => {
  const base = (): K8sObject[] => [];
  it('names what is missing in an empty render', () => {
    const problems = checkManifests(base(), expected);
    expect(problems).toEqual(
      expect.arrayContaining([
        'quote-api: no Deployment',
        'one migration Job (label app.kubernetes.io/component=migration)',
        'Ingress: no public host routes to quote-api',
      ]),
    );
  });

  it('refuses an inlined secret, a root container, a missing probe and a Secret with data', () => {
    const deployment: K8sObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'quote-api' },
      spec: {
        selector: { matchLabels: { app: 'q' } },
        template: {
          spec: {
            containers: [
              {
                name: 'quote-api',
                image: 'expedition/quote-api:latest',
                env: [{ name: 'MPP_SECRET_KEY', value: 'abc' }],
                readinessProbe: { httpGet: { path: '/readyz' } },
                securityContext: { runAsUser: 0 },
              },
            ],
          },
        },
      },
    };
    const secret: K8sObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { A: 'YQ==' } };
    const service: K8sObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'quote-api' },
      spec: { ports: [{ port: 9464, targetPort: 'metrics' }] },
    };
    const problems = checkManifests([deployment, secret, service], expected).join('\n');
    expect(problems).toMatch(/Service\/quote-api: exposes the metrics port/);
    expect(problems).toMatch(/MPP_SECRET_KEY is inlined/);
    expect(problems).toMatch(/runs as non-root/);
    expect(problems).toMatch(/liveness probe on \/healthz/);
    expect(problems).toMatch(/read-only root filesystem/);
    expect(problems).toMatch(/pinned tag/);
    expect(problems).toMatch(/Secret\/s: a Secret with its data inlined/);
    expect(problems).toMatch(/quote-api: no PodDisruptionBudget/);
  });
});
