// The OpenAPI document names the error schema once, as components.schemas.Problem, and every error
// response points at it, under both content types it is sent with. Routes keep the schema inline
// (Fastify serializes and validates with it); only the published document shares it, which keeps
// the document a fraction of the size.
import { JSON_CONTENT_TYPE, PROBLEM_CONTENT_TYPE } from './content-types.ts';
import { PROBLEM_TITLE, ProblemSchema } from './schemas.ts';

const PROBLEM_REF = '#/components/schemas/Problem';

type JsonSchema = { title?: string; properties?: Record<string, unknown>; required?: string[] };
interface Response {
  description?: string;
  content?: Record<string, { schema?: JsonSchema | object }>;
}
export interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> };
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
}

/**
 * Every response whose schema is the problem schema (marked by its title) becomes a reference to
 * components.schemas.Problem, served as the reference's JSON or as application/problem+json to a
 * client that asks for it; fields a response adds (such as
 * a conflict's existingJobId) stay beside the reference.
 */
export function shareProblemSchema<T extends OpenApiDocument>(document: T): T {
  const shared = Object.keys(ProblemSchema.properties);
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          operation.responses
            ? {
                ...operation,
                responses: Object.fromEntries(
                  Object.entries(operation.responses).map(([status, response]) => [status, refer(response, shared)]),
                ),
              }
            : operation,
        ]),
      ),
    ]),
  );
  return {
    ...document,
    components: {
      ...document.components,
      schemas: { ...document.components?.schemas, Problem: JSON.parse(JSON.stringify(ProblemSchema)) },
    },
    paths,
  };
}

function refer(response: Response, shared: string[]): Response {
  const schema = Object.values(response.content ?? {})[0]?.schema as JsonSchema | undefined;
  if (schema?.title !== PROBLEM_TITLE) return response;
  const added = Object.entries(schema.properties ?? {}).filter(([name]) => !shared.includes(name));
  const required = (schema.required ?? []).filter((name) => !shared.includes(name));
  const reference =
    added.length === 0
      ? { $ref: PROBLEM_REF }
      : {
          allOf: [{ $ref: PROBLEM_REF }],
          properties: Object.fromEntries(added),
          ...(required.length > 0 ? { required } : {}),
        };
  return {
    ...response,
    content: { [JSON_CONTENT_TYPE]: { schema: reference }, [PROBLEM_CONTENT_TYPE]: { schema: reference } },
  };
}
