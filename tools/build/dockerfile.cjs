'use strict';
// The Dockerfile written into every dist/apps/<app>/ (tools/build/package-app.cjs). Build context: that folder.
// Only configuration that is not a secret is baked in (NODE_ENV, the port); every other setting, and every secret,
// comes from the environment at run time (docs/deploy.md).

/** @param {{ app: string, portVar: string, port: number }} options */
function renderDockerfile({ app, portVar, port }) {
  return `# ${app}: built by \`nx build ${app}\`; build context = dist/apps/${app}
#   docker build -t expedition/${app}:<tag> dist/apps/${app}
# Configuration: environment variables only (docs/deploy.md). No secret has a default here.
FROM node:20-slim

ENV NODE_ENV=production \\
    ${portVar}=${port}
WORKDIR /app

# Only the packages the bundle cannot inline (native / wasm), at the versions of the root lockfile.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY . .

# The node image's unprivileged user (uid 1000), numeric so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE ${port}

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \\
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.${portVar} + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "--enable-source-maps", "main.js"]
`;
}

module.exports = { renderDockerfile };
