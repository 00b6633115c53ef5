import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: object };

/**
 * Checks responses against the OpenAPI document the server publishes: the status must be one the
 * operation declares, the content type one it declares for that status (parameters aside), and the
 * body must match its schema. Routes outside the document (health,
 * unknown paths) are not checked.
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { pattern: RegExp; operations: Record<string, Operation> }[];
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly components: object | undefined;

  constructor(document: OpenApiDocument) {
    addFormats.default(this.ajv);
    this.components = document.components;
    this.routes = Object.entries(document.paths).map(([path, operations]) => ({
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      operations,
    }));
  }

  /** Throws when the response breaks the document. */
  check(method: string, url: string, status: number, body: string, contentType = ''): void {
    const path = url.split('?')[0] ?? '';
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route?.operations[method.toLowerCase()];
    if (!operation) return;
    const declared = operation.responses?.[String(status)];
    if (!declared)
      throw new Error(`${method} ${path} answered ${status}, which its OpenAPI operation does not declare`);
    const schema = Object.values(declared.content ?? {})[0]?.schema;
    if (!schema) {
      if (body.length > 0) throw new Error(`${method} ${path} ${status} has a body but declares none`);
      return;
    }
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
    const declaredTypes = Object.keys(declared.content ?? {}).map((type) => type.split(';')[0]?.trim().toLowerCase());
    if (!declaredTypes.includes(mediaType)) {
      throw new Error(`${method} ${path} ${status} is ${contentType}, but declares ${declaredTypes.join(', ')}`);
    }
    let validate = this.compiled.get(schema);
    if (!validate) {
      // The document's own references (#/components/schemas/…) resolve against its components.
      validate = this.ajv.compile({ ...schema, components: this.components });
      this.compiled.set(schema, validate);
    }
    if (!validate(JSON.parse(body))) {
      throw new Error(
        `${method} ${path} ${status} does not match its schema: ${this.ajv.errorsText(validate.errors)}\n${body}`,
      );
    }
  }
}
