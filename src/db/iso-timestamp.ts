/**
 * SQL that reads a timestamptz column as the API writes times: ISO 8601 in UTC with microseconds
 * (`2026-11-22T09:30:00.123456Z`), formatted by the database so no precision is lost in a driver.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
