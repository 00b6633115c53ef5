// Runs first in `npm test`: checks the programs the suite starts (test/support/components.ts) and,
// when one is missing, says so in the run's first lines with the command that provides it, then
// stops the run, unless TEST_SKIP_MISSING names it (never under CI): its tests are skipped then.
// `node test/preflight.ts --packages` prints the Debian packages missing for either database's pass.
import { COMPONENTS, type Component, findComponent, ON_CI, skipsAllowed } from './support/components.ts';

process.exitCode = await preflight();

/** Checks, says what is missing, and answers the exit code: 0 to run the tests. */
async function preflight(): Promise<number> {
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  const listPackages = process.argv.includes('--packages');

  const unknown = skipsAllowed().filter((name) => !(name in COMPONENTS));
  if (unknown.length > 0) {
    console.error(
      `TEST_SKIP_MISSING names ${unknown.join(', ')}; the components it may name are ${Object.keys(COMPONENTS).join(', ')}.`,
    );
    return 2;
  }

  const needed = Object.values(COMPONENTS).filter((component) => listPackages || component.neededOn(onPostgres));
  const results = await Promise.all(
    needed.map(async (component) => {
      try {
        return { component, found: await findComponent(component.name) };
      } catch (error) {
        return { component, missing: (error as Error).message };
      }
    }),
  );
  const missing = results.flatMap(({ component, missing }) => (missing === undefined ? [] : [{ component, missing }]));

  if (listPackages) {
    console.log(missing.flatMap(({ component }) => component.aptPackage ?? []).join(' '));
    return 0;
  }

  if (missing.length === 0) {
    console.log(`npm test: ${results.map(({ found }) => found).join('; ')}: all here.`);
    return 0;
  }

  const skipped = ON_CI ? [] : missing.filter(({ component }) => skipsAllowed().includes(component.name));
  const lacking = missing.filter((entry) => !skipped.includes(entry));

  for (const { component, missing: why } of skipped) {
    console.log(
      `npm test skips ${component.neededBy}: ${component.name} is missing (${why}); TEST_SKIP_MISSING says to.`,
    );
  }
  if (lacking.length === 0) return 0;

  console.error('npm test stops: this machine lacks what some tests need.');
  for (const { component, missing: why } of lacking) {
    console.error(`  ${component.name}: ${why}; ${component.neededBy} need it.`);
  }
  console.error(`Install: ${remedies(lacking.map(({ component }) => component))}`);
  console.error(
    ON_CI
      ? 'CI runs every test: TEST_SKIP_MISSING is not heeded when CI is set.'
      : `Or skip the tests that need ${lacking.length === 1 ? 'it' : 'them'}: TEST_SKIP_MISSING=${missing.map(({ component }) => component.name).join(',')} npm test`,
  );
  return 1;
}

/** One apt-get line for the packages, then whatever no package provides. */
function remedies(components: Component[]): string {
  const packages = components.flatMap((component) => component.aptPackage ?? []);
  const others = components.filter((component) => !component.aptPackage).map((component) => component.remedy);
  return [...(packages.length > 0 ? [`apt-get install -y ${packages.join(' ')}`] : []), ...others].join('; and ');
}
