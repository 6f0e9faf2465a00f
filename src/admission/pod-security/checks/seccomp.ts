/** What the seccomp checks share: the allowed profile types and annotation values. */
export const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
export const seccompContainerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

/** `RuntimeDefault` or `Localhost` (seccompProfile.type from v1.19). */
export function validSeccompType(type: string): boolean {
  return type === 'Localhost' || type === 'RuntimeDefault';
}

/** `runtime/default`, `docker/default` or `localhost/...` (the alpha annotations before v1.19). */
export function validSeccompAnnotationValue(value: string): boolean {
  return value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
}
