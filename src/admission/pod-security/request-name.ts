/**
 * The name upstream's responses use (attrs.GetName(), which for a create with generateName
 * already holds the generated name when validating admission runs): the request's name, else the
 * object's.
 */
import type { AdmissionAttributes } from '../attributes.js';

export function requestName(a: AdmissionAttributes): string {
  return a.name !== '' ? a.name : (a.object?.metadata.name ?? '');
}
