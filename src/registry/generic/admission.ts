/**
 * Admission arrives in the registry as callbacks (the registry does not import admission/):
 * mutating admission runs before the strategy prepares and validates an object and may change it;
 * validating admission runs after validation, right before the write. Both throw a StatusError to
 * deny. The attributes are machinery's, the type the plugins read too.
 */
import type { AdmissionAttributes, ObjectAttributes } from '../../machinery/admission-attributes.js';

export type { AdmissionAttributes } from '../../machinery/admission-attributes.js';

export type ValidatingAdmission = (attrs: AdmissionAttributes) => Promise<void>;

/**
 * May change `attrs.object` in place (creates and updates). Deletes are admitted too, without an
 * object, before the stored object is read (upstream's delete handler).
 */
export type MutatingAdmission = (attrs: ObjectAttributes | AdmissionAttributes) => Promise<void>;
