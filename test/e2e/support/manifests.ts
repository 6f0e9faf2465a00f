/** E2E support: the manifests the kubectl suites apply. */

/** Deployment, Service, ConfigMap and Secret named `web*` in `ns`, as one multi-document YAML. */
export function webAppYaml(
  ns: string,
  o: { readonly greeting?: string; readonly replicas?: number } = {},
): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels:
    app: web
spec:
  replicas: ${o.replicas ?? 1}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: ${ns}
  labels:
    app: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: ${ns}
  labels:
    app: web
data:
  greeting: ${o.greeting ?? 'hello'}
---
apiVersion: v1
kind: Secret
metadata:
  name: web-secret
  namespace: ${ns}
type: Opaque
data:
  password: czNjcmV0
`;
}

/** A ConfigMap manifest. */
export function configMapYaml(ns: string, name: string, data: Readonly<Record<string, string>>): string {
  const entries = Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`)
    .join('');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n${entries}`;
}

/** A Deployment whose selector (`app: one`) does not match its template labels (`app: two`). */
export function mismatchedDeploymentYaml(ns: string, name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    matchLabels:
      app: one
  template:
    metadata:
      labels:
        app: two
    spec:
      containers:
      - name: c
        image: nginx
`;
}

/** A valid Deployment with an extra `spec.foo` field. */
export function unknownFieldDeploymentYaml(ns: string, name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  foo: bar
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: c
        image: nginx
`;
}
