/**
 * Our own rules for the rendered Kubernetes manifests (deploy/kubernetes), on top of the schema validation: each
 * returns one problem per broken rule, naming the object.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface Container {
  name: string;
  image?: string;
  readinessProbe?: { httpGet?: { path?: string } };
  livenessProbe?: { httpGet?: { path?: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
  };
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}

export interface Expectations {
  apps: readonly string[];
  /** host → the Service it must route to (with the path, when only one path is public). */
  publicRoutes: ReadonlyArray<{ service: string; path?: string }>;
}

/** Names of variables that hold secrets: never a literal value in a manifest, only a secretKeyRef. */
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|_KEYS?$|DATABASE_URL|REDIS_URL|SMTP_URL/;

function podSpecOf(o: K8sObject): PodSpec | undefined {
  const template = (o.spec as { template?: { spec?: PodSpec } } | undefined)?.template;
  return template?.spec;
}

export function checkManifests(objects: K8sObject[], expected: Expectations): string[] {
  const problems: string[] = [];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const id = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;

  for (const o of [...of('Deployment'), ...of('Job')]) {
    const pod = podSpecOf(o);
    if (!pod) {
      problems.push(`${id(o)}: no pod template`);
      continue;
    }
    const podNonRoot = pod.securityContext?.runAsNonRoot === true && (pod.securityContext.runAsUser ?? 1) !== 0;
    for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
      const where = `${id(o)} container ${c.name}`;
      if (o.kind === 'Deployment') {
        if (c.readinessProbe?.httpGet?.path !== '/readyz') problems.push(`${where}: readiness probe on /readyz`);
        if (c.livenessProbe?.httpGet?.path !== '/healthz') problems.push(`${where}: liveness probe on /healthz`);
      }
      if (!c.resources?.requests?.['cpu'] || !c.resources.requests['memory'] || !c.resources.limits?.['memory']) {
        problems.push(`${where}: resources (cpu and memory requests, a memory limit)`);
      }
      if (!(podNonRoot || c.securityContext?.runAsNonRoot === true) || c.securityContext?.runAsUser === 0)
        problems.push(`${where}: runs as non-root`);
      if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: read-only root filesystem`);
      if (c.securityContext?.allowPrivilegeEscalation !== false)
        problems.push(`${where}: allowPrivilegeEscalation false`);
      if (!c.image || /:latest$/.test(c.image) || !/:[\w.-]+$/.test(c.image.split('/').at(-1) ?? ''))
        problems.push(`${where}: an image with a pinned tag (${c.image})`);
      for (const e of c.env ?? []) {
        if (SECRET_NAME.test(e.name) && e.value !== undefined)
          problems.push(`${where}: ${e.name} is inlined; reference a Secret`);
      }
    }
  }

  for (const svc of of('Service')) {
    const ports =
      (svc.spec as { ports?: Array<{ name?: string; port: number; targetPort?: string | number }> }).ports ?? [];
    if (ports.some((p) => p.name === 'metrics' || p.targetPort === 'metrics' || p.targetPort === 9464)) {
      problems.push(`${id(svc)}: exposes the metrics port (scraped from the pod, never through a Service)`);
    }
  }

  for (const s of of('Secret')) {
    if (Object.keys(s.data ?? {}).length > 0 || Object.keys(s.stringData ?? {}).length > 0)
      problems.push(`${id(s)}: a Secret with its data inlined in the manifests`);
  }
  for (const cm of of('ConfigMap')) {
    for (const [key, value] of Object.entries(cm.data ?? {})) {
      if (SECRET_NAME.test(key) && !/PUBLISHABLE_KEY$/.test(key)) {
        problems.push(`${id(cm)}: ${key} looks like a secret (${value.length} characters); put it in the Secret`);
      }
    }
  }

  for (const app of expected.apps) {
    const deployment = of('Deployment').find((d) => d.metadata.name === app);
    if (!deployment) {
      problems.push(`${app}: no Deployment`);
      continue;
    }
    const selector =
      (deployment.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
    const selects = (labels: Record<string, string> | undefined) =>
      Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
    if (!of('Service').some((s) => selects((s.spec as { selector?: Record<string, string> }).selector)))
      problems.push(`${app}: no Service selecting its pods`);
    if (
      !of('PodDisruptionBudget').some((p) =>
        selects((p.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels),
      )
    ) {
      problems.push(`${app}: no PodDisruptionBudget`);
    }
    const hpa = of('HorizontalPodAutoscaler').find((h) => {
      const ref = (h.spec as { scaleTargetRef?: { kind?: string; name?: string } }).scaleTargetRef;
      return ref?.kind === 'Deployment' && ref.name === app;
    });
    if (!hpa) problems.push(`${app}: no HorizontalPodAutoscaler`);
    else {
      const { minReplicas = 1, maxReplicas = 0 } = hpa.spec as { minReplicas?: number; maxReplicas?: number };
      if (minReplicas > maxReplicas)
        problems.push(`${id(hpa)}: minReplicas ${minReplicas} > maxReplicas ${maxReplicas}`);
    }
  }

  const migrate = of('Job').filter((j) => j.metadata.labels?.['app.kubernetes.io/component'] === 'migration');
  if (migrate.length !== 1) problems.push('one migration Job (label app.kubernetes.io/component=migration)');
  else {
    const jobImage = podSpecOf(migrate[0]!)?.containers[0]?.image;
    const appImages = of('Deployment').flatMap((d) => podSpecOf(d)?.containers.map((c) => c.image) ?? []);
    const tagOf = (image?: string) => image?.split(':').at(-1);
    if (!appImages.some((image) => image === jobImage) || appImages.some((image) => tagOf(image) !== tagOf(jobImage))) {
      problems.push(`${id(migrate[0]!)}: runs an app image of the same release (${jobImage})`);
    }
  }

  const ingresses = of('Ingress');
  const rules = ingresses.flatMap(
    (i) =>
      (
        i.spec as {
          rules?: Array<{
            host?: string;
            http?: { paths: Array<{ path?: string; backend: { service?: { name: string } } }> };
          }>;
        }
      ).rules ?? [],
  );
  for (const route of expected.publicRoutes) {
    const routed = rules.filter((r) => r.http?.paths.some((p) => p.backend.service?.name === route.service));
    if (routed.length === 0) problems.push(`Ingress: no public host routes to ${route.service}`);
    for (const r of routed) {
      if (!r.host) problems.push(`Ingress: a rule to ${route.service} without a host`);
      const paths = r.http!.paths.filter((p) => p.backend.service?.name === route.service).map((p) => p.path);
      if (route.path && paths.some((p) => p !== route.path))
        problems.push(`Ingress: ${route.service} is public beyond ${route.path} (${paths.join(', ')})`);
    }
  }
  const routedServices = new Set(rules.flatMap((r) => r.http?.paths.map((p) => p.backend.service?.name) ?? []));
  for (const service of routedServices) {
    if (!of('Service').some((s) => s.metadata.name === service))
      problems.push(`Ingress: routes to ${service}, which is no Service`);
  }
  return problems;
}
