/**
 * Pod specs taken from upstream's e2e conformance specs, for our tests of the simulated kubelet:
 * the facts they encode (commands, volumes) are upstream's, the expectations are our tests'.
 */
import type { JsonObject } from '../../../util/json.js';

export const busyboxImage = 'registry.k8s.io/e2e-test-images/busybox:1.29-4';

/**
 * The script of "Container Runtime blackbox test when starting a container that exits should run
 * with the expected status": it fails the first time, succeeds the second, then runs for ever,
 * counting its runs in a file of an emptyDir volume mounted at /restart-count.
 */
export const restartCountScript = `
f=/restart-count/restartCount
count=$(echo 'hello' >> $f ; wc -l $f | awk {'print $1'})
if [ $count -eq 1 ]; then
	exit 1
fi
if [ $count -eq 2 ]; then
	exit 0
fi
while true; do sleep 1; done
`;

/** The pod spec that runs {@link restartCountScript} under `restartPolicy`. */
export function restartCountPodSpec(restartPolicy: string): JsonObject {
  return {
    restartPolicy,
    containers: [
      {
        name: 'c',
        image: busyboxImage,
        command: ['sh', '-c', restartCountScript],
        volumeMounts: [{ name: 'restart-count', mountPath: '/restart-count' }],
      },
    ],
    volumes: [{ name: 'restart-count', emptyDir: { medium: 'Memory' } }],
  };
}

/**
 * Upstream "Variable Expansion should verify that a failing subpath expansion can be modified
 * during the lifecycle of a container": the subPathExpr reads an annotation the pod does not have
 * yet (so it expands to the absolute `/foo`).
 */
export const subpathAnnotationPodSpec: JsonObject = {
  volumes: [{ name: 'workdir1', emptyDir: {} }],
  containers: [
    {
      name: 'dapi-container',
      image: busyboxImage,
      command: ['sh', '-c', 'tail -f /dev/null'],
      env: [
        { name: 'POD_NAME', value: 'foo' },
        {
          name: 'ANNOTATION',
          valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['mysubpath']" } },
        },
      ],
      volumeMounts: [
        { name: 'workdir1', mountPath: '/subpath_mount', subPathExpr: '$(ANNOTATION)/$(POD_NAME)' },
        { name: 'workdir1', mountPath: '/volume_mount' },
      ],
    },
  ],
};
