/** Collects the values of a parameterised statement and names their placeholders ($1, $2, …). */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(initial: readonly unknown[] = []) {
    this.values.push(...initial);
  }

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
