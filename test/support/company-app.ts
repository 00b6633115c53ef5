import { randomUUID } from 'node:crypto';
import { after } from 'node:test';
import { startTestApp, type TestApp } from './harness.ts';

export interface CompanyTestApp {
  t: TestApp;
  /** The company the file's tests work in. */
  company: string;
  /** A token with every scope for `company`. */
  token: string;
  /** A company of its own, with a token with every scope for it, for a test that must start empty. */
  freshCompany(): Promise<{ companyId: string; token: string }>;
}

/**
 * What an API test file starts from: a server on a fresh database, closed after the file's tests,
 * one company and a token for it. Awaited at the top of the file, so that its tests read `t`,
 * `company` and `token` as constants: `const { t, company, token } = await startCompanyTestApp();`.
 */
export async function startCompanyTestApp(): Promise<CompanyTestApp> {
  const t = await startTestApp();
  after(() => t.close());
  const company = randomUUID();
  return {
    t,
    company,
    token: await t.token({ companies: [company] }),
    freshCompany: async () => {
      const companyId = randomUUID();
      return { companyId, token: await t.token({ companies: [companyId] }) };
    },
  };
}
