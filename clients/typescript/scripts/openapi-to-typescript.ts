// Turns ledgerhook's OpenAPI document into the client's types (docs/decisions/client.md): one entry
// per operation (path and query parameters, body, each success response), the runtime table of
// methods and paths, and every webhook payload keyed by its event type. Only the JSON Schema the
// service's route schemas produce is handled; anything else is a thrown error, never a silent `any`.

type Schema = { [key: string]: any } | boolean;

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}

interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation }>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'description',
  'deprecated',
  // Validation only: a type cannot say them.
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'maxProperties',
  'formatMinimum',
  'formatMaximum',
  'propertyNames',
  'default',
  'examples',
  'example',
  'title',
]);

/** The generated module's text. */
export function openApiToTypeScript(document: OpenApiDocument): string {
  const out: string[] = [
    `// Generated from ledgerhook's OpenAPI document (version ${document.info.version}) by`,
    '// clients/typescript/scripts/generate.ts. Do not edit: run `npm run generate:client`;',
    '// test/client/generated.test.ts fails while this file differs from what the service publishes.',
    '',
    '/** The service version these types were generated from. */',
    `export const SERVICE_VERSION = ${literal(document.info.version)};`,
    '',
  ];
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    out.push(...comment(description(schema), ''), `export type ${name} = ${render(schema, '')};`, '');
  }

  const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    METHODS.filter((method) => byMethod[method]).map((method) => ({
      path,
      method,
      operation: byMethod[method] as Operation,
    })),
  );
  operations.sort((a, b) => a.operation.operationId.localeCompare(b.operation.operationId));

  out.push('/** Every operation of the API by its operationId: parameters, body and success responses. */');
  out.push('export interface Operations {');
  for (const { path, method, operation } of operations) {
    out.push(...comment(`${operation.summary ?? ''} (${method.toUpperCase()} ${path})`, '  '));
    out.push(`  ${operation.operationId}: {`);
    for (const place of ['path', 'query']) {
      out.push(`    ${place}: ${renderParameters(operation, place, '    ')};`);
    }
    out.push(`    body: ${renderBody(operation, '    ')};`);
    out.push('    responses: {');
    for (const [status, response] of successes(operation)) {
      const content = Object.values(response.content ?? {})[0];
      out.push(...comment(response.description, '      '));
      out.push(`      ${status}: ${content ? render(content.schema, '      ') : 'undefined'};`);
    }
    out.push('    };');
    out.push('  };');
  }
  out.push('}', '');

  out.push("/** Each operation's method, path template and success statuses, for the client to send it. */");
  out.push('export const OPERATIONS = {');
  for (const { path, method, operation } of operations) {
    const statuses = successes(operation).map(([status]) => status);
    out.push(
      `  ${operation.operationId}: { method: ${literal(method.toUpperCase())}, path: ${literal(path)}, statuses: [${statuses.join(', ')}] },`,
    );
  }
  out.push('} as const;', '');

  out.push("/** The `payload` of each event type's notification (and of its feed items), by event type. */");
  out.push('export interface WebhookPayloads {');
  for (const [eventType, { post }] of Object.entries(document.webhooks ?? {})) {
    const body = Object.values(post.requestBody?.content ?? {})[0]?.schema;
    const payload = typeof body === 'object' ? body.properties?.payload : undefined;
    if (!payload) throw new Error(`the webhook ${eventType} has no payload schema`);
    out.push(...comment(post.summary, '  '), `  ${literal(eventType)}: ${render(payload, '  ')};`);
  }
  out.push('}', '');
  return `${out.join('\n')}\n`;
}

function successes(operation: Operation): [string, Operation['responses'][string]][] {
  return Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
}

function renderParameters(operation: Operation, place: string, indent: string): string {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === place);
  if (parameters.length === 0) return 'never';
  const lines = parameters.flatMap((parameter) => [
    ...comment(parameter.description, `${indent}  `),
    `${indent}  ${key(parameter.name)}${parameter.required ? '' : '?'}: ${render(parameter.schema, `${indent}  `)};`,
  ]);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function renderBody(operation: Operation, indent: string): string {
  const content = Object.values(operation.requestBody?.content ?? {})[0];
  if (!content) return 'undefined';
  const type = render(content.schema, indent);
  return operation.requestBody?.required ? type : `${type} | undefined`;
}

/** The TypeScript type of a JSON Schema, written at `indent`. */
function render(schema: Schema, indent: string): string {
  return typeOf(schema, indent).text;
}

interface Rendered {
  text: string;
  /** A union or intersection: an array of it needs parentheses. */
  compound: boolean;
}

const simple = (text: string): Rendered => ({ text, compound: false });

function typeOf(schema: Schema, indent: string): Rendered {
  if (schema === true) return simple('unknown');
  if (schema === false) return simple('never');
  for (const name of Object.keys(schema)) {
    if (!HANDLED.has(name) && name !== '$ref') throw new Error(`unhandled JSON Schema keyword ${name}`);
  }
  if (schema.$ref) return simple(String(schema.$ref).replace('#/components/schemas/', ''));
  if ('const' in schema) return simple(literal(schema.const));
  if (schema.enum) return union(schema.enum.map((value: unknown) => simple(literal(value))));
  if (schema.anyOf || schema.oneOf) {
    return union((schema.anyOf ?? schema.oneOf).map((member: Schema) => typeOf(member, indent)));
  }
  if (schema.allOf) {
    const members: Rendered[] = schema.allOf.map((member: Schema) => typeOf(member, indent));
    return { text: members.map(wrap).join(' & '), compound: members.length > 1 };
  }
  if (Array.isArray(schema.type)) {
    return union(schema.type.map((type: string) => typeOf({ ...schema, type }, indent)));
  }
  switch (schema.type) {
    case undefined:
      return simple('unknown');
    case 'string':
      return simple('string');
    case 'integer':
    case 'number':
      return simple('number');
    case 'boolean':
      return simple('boolean');
    case 'null':
      return simple('null');
    case 'array':
      return simple(`${wrap(typeOf(schema.items ?? true, indent))}[]`);
    case 'object':
      return simple(renderObject(schema, indent));
    default:
      throw new Error(`unhandled JSON Schema type ${schema.type}`);
  }
}

function renderObject(schema: { [key: string]: any }, indent: string): string {
  const properties = Object.entries<Schema>(schema.properties ?? {});
  const extra = [
    ...Object.values<Schema>(schema.patternProperties ?? {}),
    ...(schema.additionalProperties === undefined || schema.additionalProperties === false
      ? []
      : [schema.additionalProperties]),
  ];
  if (properties.length === 0) {
    if (extra.length === 0 && schema.additionalProperties === false) return 'Record<string, never>';
    return `Record<string, ${extra.length ? union(extra.map((s) => typeOf(s, indent))).text : 'unknown'}>`;
  }
  const required = new Set<string>(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = properties.flatMap(([name, property]) => [
    ...comment(typeof property === 'object' ? description(property) : undefined, inner),
    `${inner}${key(name)}${required.has(name) ? '' : '?'}: ${render(property, inner)};`,
  ]);
  // Named properties beside free ones: an index signature must admit every property's type.
  if (extra.length) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function description(schema: Schema): string | undefined {
  if (typeof schema !== 'object') return undefined;
  const text = schema.description as string | undefined;
  return schema.deprecated ? `${text ?? ''}\n@deprecated` : text;
}

function comment(text: string | undefined, indent: string): string[] {
  if (!text?.trim()) return [];
  const lines = text.replaceAll('*/', '*\\/').trim().split('\n');
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`];
}

function union(members: Rendered[]): Rendered {
  const texts = [...new Set(members.map((member) => member.text))];
  return texts.length === 1 ? (members[0] as Rendered) : { text: texts.join(' | '), compound: true };
}

function wrap({ text, compound }: Rendered): string {
  return compound ? `(${text})` : text;
}

function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
}

function literal(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}
