// The content types the service answers with, as the reference API's files declare them: JSON as
// `application/json;charset=UTF-8`, errors as `application/problem+json` (RFC 9457).

export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
