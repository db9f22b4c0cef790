// Issue 12 §1 and §3: the built artifacts (dist/apps/<app>) run from an empty folder, their Dockerfiles, config
// refusals of the built processes, and the Kubernetes manifests (kustomize overlays validated against the schemas).
module.exports = { ...require('../../jest.preset.js'), displayName: 'deploy', rootDir: __dirname, testTimeout: 180000 };
