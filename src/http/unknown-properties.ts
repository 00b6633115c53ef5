// Request bodies hold only the properties their schema declares (docs/decisions/api-conventions.md,
// "Unknown properties"): a misspelt field is a 400 naming it, never a request carried out without it.

// Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const closedCopies = new WeakMap<object, object>();

/**
 * A copy of `schema` in which every object that lists its `properties` and says nothing of other
 * properties (no `additionalProperties`, `patternProperties` or `unevaluatedProperties`) refuses
 * others: `additionalProperties: false`. An object that declares `additionalProperties` (metadata,
 * custom headers, a map of amounts) stays as open as it says. The same schema gives the same copy,
 * so a validator compiled for it is compiled once.
 */
export function closeObjectSchemas<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  let closed = closedCopies.get(schema);
  if (!closed) {
    closed = closeNode(schema as Record<string, unknown>);
    closedCopies.set(schema, closed);
    closedCopies.set(closed, closed);
  }
  return closed as T;
}

function closeNode(node: Record<string, unknown>): Record<string, unknown> {
  // A closed part of an allOf would refuse the properties of the other parts.
  if ('allOf' in node) throw new Error('closeObjectSchemas: allOf is not supported in a request body schema');
  const copy: Record<string, unknown> = { ...node };
  for (const keyword of SCHEMA_KEYWORDS) {
    if (isSchema(node[keyword])) copy[keyword] = closeObjectSchemas(node[keyword]);
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = node[keyword];
    if (Array.isArray(list)) copy[keyword] = list.map((item) => closeObjectSchemas(item));
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (isSchema(map)) {
      copy[keyword] = Object.fromEntries(Object.entries(map).map(([name, item]) => [name, closeObjectSchemas(item)]));
    }
  }
  const saysWhatElse = ['additionalProperties', 'patternProperties', 'unevaluatedProperties'].some((k) => k in node);
  if (isSchema(node.properties) && !saysWhatElse) copy.additionalProperties = false;
  return copy;
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What is said of an unknown property: its name, the object it is in when `parent` names one, and
 * the known property it most likely misspells, when one is close.
 */
export function unknownPropertyMessage(name: string, known: readonly string[], parent = ''): string {
  const suggestion = closestName(name, known);
  const where = parent ? ` in ${shortened(parent)}` : '';
  const guess = suggestion === undefined ? '' : `; did you mean ${JSON.stringify(suggestion)}?`;
  return `Unknown property ${JSON.stringify(shortened(name))}${where}${guess}`;
}

/** The most characters of a client's name or path that a message repeats. */
const SHOWN_LENGTH = 100;

/**
 * `text`, cut to SHOWN_LENGTH characters with an ellipsis: a message repeats a name beside the
 * field error's path, and a key may be as long as the body (docs/decisions/bounded-answers.md).
 */
export function shortened(text: string): string {
  if (text.length <= SHOWN_LENGTH) return text;
  const last = text.charCodeAt(SHOWN_LENGTH - 1);
  // Not half of a surrogate pair.
  const end = last >= 0xd800 && last <= 0xdbff ? SHOWN_LENGTH - 1 : SHOWN_LENGTH;
  return `${text.slice(0, end)}…`;
}

/**
 * The known name that differs from `name` only in case, else the one fewest edits away (an edit
 * inserts, deletes or changes a letter, or swaps two adjacent ones, case ignored) if that is at most
 * a third of the name's length (one edit for names under six letters); ties go to the first listed.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameLetters = known.find((candidate) => candidate.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    // Each edit changes the length by one at most: a name much longer or shorter is not close (and a
    // key of a megabyte costs no comparison).
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  // Rows i-2, i-1 and i of the usual table, over b's positions, reused from row to row.
  let before = new Uint32Array(b.length + 1);
  let previous = Uint32Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (before[j - 2] as number) + 1);
      }
      current[j] = distance;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] as number;
}
