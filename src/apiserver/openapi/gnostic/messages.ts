/**
 * Field layout of the gnostic `openapi.v2` protobuf messages (openapiv2/OpenAPIv2.proto of
 * google/gnostic-models). Each message is written as a compact list of
 * `<field number> <JSON key> <kind>` entries; kind is `s` string, `b` bool, `d` double, `i` int64 or
 * a message name, prefixed with `*` when repeated. A leading `!` marks a message that is a single
 * oneof. JSON keys are the Swagger 2.0 names (`$ref` for `_ref`); `vendorExtension` collects the
 * `x-` keys and `additionalProperties` of the Named* map messages collects every key.
 */

export type ScalarKind = 's' | 'b' | 'd' | 'i';

export interface FieldInfo {
  readonly no: number;
  readonly key: string;
  /** Scalar kind or message name. */
  readonly kind: string;
  readonly repeated: boolean;
}

export interface MessageInfo {
  readonly name: string;
  readonly oneof: boolean;
  readonly fields: readonly FieldInfo[];
}

/** The trailing `x-` extensions field most messages have. */
const EXT = 'vendorExtension *NamedAny';
const NUMERIC_CONSTRAINTS =
  'maximum d, exclusiveMaximum b, minimum d, exclusiveMinimum b, maxLength i, minLength i, pattern s, maxItems i, minItems i, uniqueItems b, enum *Any, multipleOf d';

/** Numbers the comma-separated `<key> <kind>` entries from `start`. */
function seq(start: number, spec: string): string {
  return spec
    .split(', ')
    .map((entry, i) => `${start + i} ${entry}`)
    .join(', ');
}

const PRIMITIVE_TAIL = (start: number): string => `${seq(start, NUMERIC_CONSTRAINTS)}, ${start + 12} ${EXT}`;

const LAYOUT: Readonly<Record<string, string>> = {
  AdditionalPropertiesItem: '!1 schema Schema, 2 boolean b',
  Any: '1 value bytes, 2 yaml s',
  ApiKeySecurity: `1 type s, 2 name s, 3 in s, 4 description s, 5 ${EXT}`,
  BasicAuthenticationSecurity: `1 type s, 2 description s, 3 ${EXT}`,
  BodyParameter: `1 description s, 2 name s, 3 in s, 4 required b, 5 schema Schema, 6 ${EXT}`,
  Contact: `1 name s, 2 url s, 3 email s, 4 ${EXT}`,
  Default: '1 additionalProperties *NamedAny',
  Definitions: '1 additionalProperties *NamedSchema',
  Document:
    '1 swagger s, 2 info Info, 3 host s, 4 basePath s, 5 schemes *s, 6 consumes *s, 7 produces *s, ' +
    '8 paths Paths, 9 definitions Definitions, 10 parameters ParameterDefinitions, ' +
    '11 responses ResponseDefinitions, 12 security *SecurityRequirement, ' +
    '13 securityDefinitions SecurityDefinitions, 14 tags *Tag, 15 externalDocs ExternalDocs, ' +
    `16 ${EXT}`,
  Examples: '1 additionalProperties *NamedAny',
  ExternalDocs: `1 description s, 2 url s, 3 ${EXT}`,
  FileSchema:
    '1 format s, 2 title s, 3 description s, 4 default Any, 5 required *s, 6 type s, 7 readOnly b, ' +
    `8 externalDocs ExternalDocs, 9 example Any, 10 ${EXT}`,
  FormDataParameterSubSchema:
    '1 required b, 2 in s, 3 description s, 4 name s, 5 allowEmptyValue b, 6 type s, 7 format s, ' +
    '8 items PrimitivesItems, 9 collectionFormat s, 10 default Any, ' +
    PRIMITIVE_TAIL(11),
  Header:
    '1 type s, 2 format s, 3 items PrimitivesItems, 4 collectionFormat s, 5 default Any, ' +
    seq(6, NUMERIC_CONSTRAINTS) +
    `, 18 description s, 19 ${EXT}`,
  HeaderParameterSubSchema:
    '1 required b, 2 in s, 3 description s, 4 name s, 5 type s, 6 format s, 7 items PrimitivesItems, ' +
    '8 collectionFormat s, 9 default Any, ' +
    PRIMITIVE_TAIL(10),
  Headers: '1 additionalProperties *NamedHeader',
  Info:
    '1 title s, 2 version s, 3 description s, 4 termsOfService s, 5 contact Contact, ' +
    `6 license License, 7 ${EXT}`,
  ItemsItem: '1 schema *Schema',
  JsonReference: '1 $ref s, 2 description s',
  License: `1 name s, 2 url s, 3 ${EXT}`,
  NamedAny: '1 name s, 2 value Any',
  NamedHeader: '1 name s, 2 value Header',
  NamedParameter: '1 name s, 2 value Parameter',
  NamedPathItem: '1 name s, 2 value PathItem',
  NamedResponse: '1 name s, 2 value Response',
  NamedResponseValue: '1 name s, 2 value ResponseValue',
  NamedSchema: '1 name s, 2 value Schema',
  NamedSecurityDefinitionsItem: '1 name s, 2 value SecurityDefinitionsItem',
  NamedString: '1 name s, 2 value s',
  NamedStringArray: '1 name s, 2 value StringArray',
  NonBodyParameter:
    '!1 headerParameterSubSchema HeaderParameterSubSchema, ' +
    '2 formDataParameterSubSchema FormDataParameterSubSchema, ' +
    '3 queryParameterSubSchema QueryParameterSubSchema, ' +
    '4 pathParameterSubSchema PathParameterSubSchema',
  Oauth2AccessCodeSecurity:
    '1 type s, 2 flow s, 3 scopes Oauth2Scopes, 4 authorizationUrl s, 5 tokenUrl s, ' +
    `6 description s, 7 ${EXT}`,
  Oauth2ApplicationSecurity: `1 type s, 2 flow s, 3 scopes Oauth2Scopes, 4 tokenUrl s, 5 description s, 6 ${EXT}`,
  Oauth2ImplicitSecurity: `1 type s, 2 flow s, 3 scopes Oauth2Scopes, 4 authorizationUrl s, 5 description s, 6 ${EXT}`,
  Oauth2PasswordSecurity: `1 type s, 2 flow s, 3 scopes Oauth2Scopes, 4 tokenUrl s, 5 description s, 6 ${EXT}`,
  Oauth2Scopes: '1 additionalProperties *NamedString',
  Operation:
    '1 tags *s, 2 summary s, 3 description s, 4 externalDocs ExternalDocs, 5 operationId s, ' +
    '6 produces *s, 7 consumes *s, 8 parameters *ParametersItem, 9 responses Responses, ' +
    `10 schemes *s, 11 deprecated b, 12 security *SecurityRequirement, 13 ${EXT}`,
  Parameter: '!1 bodyParameter BodyParameter, 2 nonBodyParameter NonBodyParameter',
  ParameterDefinitions: '1 additionalProperties *NamedParameter',
  ParametersItem: '!1 parameter Parameter, 2 jsonReference JsonReference',
  PathItem:
    '1 $ref s, 2 get Operation, 3 put Operation, 4 post Operation, 5 delete Operation, ' +
    `6 options Operation, 7 head Operation, 8 patch Operation, 9 parameters *ParametersItem, 10 ${EXT}`,
  PathParameterSubSchema:
    '1 required b, 2 in s, 3 description s, 4 name s, 5 type s, 6 format s, 7 items PrimitivesItems, ' +
    '8 collectionFormat s, 9 default Any, ' +
    PRIMITIVE_TAIL(10),
  Paths: '1 vendorExtension *NamedAny, 2 path *NamedPathItem',
  PrimitivesItems:
    '1 type s, 2 format s, 3 items PrimitivesItems, 4 collectionFormat s, 5 default Any, ' +
    PRIMITIVE_TAIL(6),
  Properties: '1 additionalProperties *NamedSchema',
  QueryParameterSubSchema:
    '1 required b, 2 in s, 3 description s, 4 name s, 5 allowEmptyValue b, 6 type s, 7 format s, ' +
    '8 items PrimitivesItems, 9 collectionFormat s, 10 default Any, ' +
    PRIMITIVE_TAIL(11),
  Response: `1 description s, 2 schema SchemaItem, 3 headers Headers, 4 examples Examples, 5 ${EXT}`,
  ResponseDefinitions: '1 additionalProperties *NamedResponse',
  ResponseValue: '!1 response Response, 2 jsonReference JsonReference',
  Responses: '1 responseCode *NamedResponseValue, 2 vendorExtension *NamedAny',
  Schema:
    '1 $ref s, 2 format s, 3 title s, 4 description s, 5 default Any, 6 multipleOf d, 7 maximum d, ' +
    '8 exclusiveMaximum b, 9 minimum d, 10 exclusiveMinimum b, 11 maxLength i, 12 minLength i, ' +
    '13 pattern s, 14 maxItems i, 15 minItems i, 16 uniqueItems b, 17 maxProperties i, ' +
    '18 minProperties i, 19 required *s, 20 enum *Any, 21 additionalProperties AdditionalPropertiesItem, ' +
    '22 type TypeItem, 23 items ItemsItem, 24 allOf *Schema, 25 properties Properties, ' +
    '26 discriminator s, 27 readOnly b, 28 xml Xml, 29 externalDocs ExternalDocs, 30 example Any, ' +
    `31 ${EXT}`,
  SchemaItem: '!1 schema Schema, 2 fileSchema FileSchema',
  SecurityDefinitions: '1 additionalProperties *NamedSecurityDefinitionsItem',
  SecurityDefinitionsItem:
    '!1 basicAuthenticationSecurity BasicAuthenticationSecurity, 2 apiKeySecurity ApiKeySecurity, ' +
    '3 oauth2ImplicitSecurity Oauth2ImplicitSecurity, 4 oauth2PasswordSecurity Oauth2PasswordSecurity, ' +
    '5 oauth2ApplicationSecurity Oauth2ApplicationSecurity, ' +
    '6 oauth2AccessCodeSecurity Oauth2AccessCodeSecurity',
  SecurityRequirement: '1 additionalProperties *NamedStringArray',
  StringArray: '1 value *s',
  Tag: `1 name s, 2 description s, 3 externalDocs ExternalDocs, 4 ${EXT}`,
  TypeItem: '1 value *s',
  VendorExtension: '1 additionalProperties *NamedAny',
  Xml: `1 name s, 2 namespace s, 3 prefix s, 4 attribute b, 5 wrapped b, 6 ${EXT}`,
};

function parseMessage(name: string, layout: string): MessageInfo {
  const oneof = layout.startsWith('!');
  const body = oneof ? layout.slice(1) : layout;
  const fields = body.split(', ').map((entry): FieldInfo => {
    const [no, key, rawKind] = entry.split(' ');
    if (no === undefined || key === undefined || rawKind === undefined) {
      throw new Error(`bad gnostic layout for ${name}: ${entry}`);
    }
    const repeated = rawKind.startsWith('*');
    return { no: Number(no), key, kind: repeated ? rawKind.slice(1) : rawKind, repeated };
  });
  return { name, oneof, fields };
}

/** Every message of the `openapi.v2` package by name. */
export const GNOSTIC_V2_MESSAGES: ReadonlyMap<string, MessageInfo> = new Map(
  Object.entries(LAYOUT).map(([name, layout]) => [name, parseMessage(name, layout)]),
);

export function gnosticMessage(name: string): MessageInfo {
  const m = GNOSTIC_V2_MESSAGES.get(name);
  if (m === undefined) throw new Error(`unknown gnostic message ${name}`);
  return m;
}
