/** The shape of our description tables: per definition, its own text and its fields' texts. */
export interface DefinitionText {
  /** What the definition (a kind, or a nested type such as Probe) is. */
  readonly text?: string;
  /** Property name -> what the property means. */
  readonly fields?: Readonly<Record<string, string>>;
}

/** Definition name (e.g. `io.k8s.api.core.v1.Probe`) -> its descriptions. */
export type DescriptionTable = Readonly<Record<string, DefinitionText>>;
