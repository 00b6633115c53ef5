import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseDurationList } from '../src/config.ts';

describe('configuration', () => {
  it('has the defaults the README lists', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    assert.equal(config.webhookRetentionMs, 30 * 86_400_000);
    assert.equal(config.webhookDisableAfterMs, 5 * 86_400_000);
    assert.equal(loadConfig({ WEBHOOK_DISABLE_AFTER: '0' }).webhookDisableAfterMs, 0, '0 turns it off');
    assert.deepEqual(
      config.webhookRetrySchedule,
      [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    );
    assert.equal(config.webhookTimeoutMs, 15_000);
    assert.equal(config.webhookAllowPrivateTargets, false);
    assert.equal(config.webhookMaxSubscriptionsPerTenant, 250);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.environment, 'production');
    assert.equal(config.exportJobTtlSeconds, 3600);
    assert.equal(config.pgliteSharedBuffersMb, 'auto');
    assert.equal(config.metricsPort, undefined);
  });

  it('reads every setting from the environment', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://db/x',
      DATA_DIR: 'memory',
      AUTH_JWT_SECRET: 's',
      AUTH_JWKS_URL: 'https://id.example/jwks',
      AUTH_ISSUER: 'iss',
      AUTH_AUDIENCE: 'aud',
      WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,1.5s',
      WEBHOOK_TIMEOUT_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'debug',
      ENVIRONMENT: 'staging',
      EXPORT_JOB_TTL: '5',
      PGLITE_SHARED_BUFFERS_MB: '256',
      WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: '1000',
      METRICS_PORT: '9464',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.databaseUrl, 'postgres://db/x');
    assert.deepEqual(config.webhookRetrySchedule, [50, 100, 1500]);
    assert.equal(config.webhookAllowPrivateTargets, true);
    assert.equal(config.environment, 'staging');
    assert.equal(config.exportJobTtlSeconds, 5);
    assert.equal(config.pgliteSharedBuffersMb, 256);
    assert.equal(config.webhookMaxSubscriptionsPerTenant, 1000);
    assert.equal(config.metricsPort, 9464);
    assert.equal(loadConfig({ PGLITE_SHARED_BUFFERS_MB: 'auto' }).pgliteSharedBuffersMb, 'auto');
  });

  for (const [name, value] of [
    ['PORT', '70000'],
    ['PORT', 'eighty'],
    ['WEBHOOK_TIMEOUT_MS', '0'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes'],
    ['ENVIRONMENT', 'dev'],
    ['WEBHOOK_RETRY_SCHEDULE', '5s,soon'],
    ['PGLITE_SHARED_BUFFERS_MB', '8'],
    ['PGLITE_SHARED_BUFFERS_MB', '2048'],
    ['PGLITE_SHARED_BUFFERS_MB', 'lots'],
    // Number() would read these as numbers: ' ' as 0, 0x4965 as 18789, 1e3 as 1000.
    ['PORT', ' '],
    ['PORT', '0x4965'],
    ['PORT', '1.8741e4'],
    ['WEBHOOK_TIMEOUT_MS', '1e3'],
    ['EXPORT_JOB_TTL', '0b11'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_RETENTION', '30 days'],
    ['WEBHOOK_RETENTION', '0'],
    ['WEBHOOK_DISABLE_AFTER', 'soon'],
    ['WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT', '0'],
    ['WEBHOOK_DISABLE_AFTER', '-1d'],
    ['WEBHOOK_RETENTION', '10000000d'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '0'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.0/-1'],
    ['TRUST_PROXY', '10.0.0.1,proxy.example'],
    ['TRUST_PROXY', '10.0.0.1,'],
    ['DASHBOARD', 'off'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', 'metrics'],
    // A comment after a value, which systemd's EnvironmentFile keeps as part of it.
    ['HOST', '127.0.0.1   # only the proxy reaches the processes'],
    ['HOST', '-proxy'],
    ['PORT', '8080 # the first API process'],
  ] as const) {
    it(`refuses ${name}=${JSON.stringify(value)} with a message naming it`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) => error instanceof ConfigError && error.message.includes(`${name}=${value}`),
      );
    });
  }

  it('refuses a DATABASE_URL, AUTH_JWKS_URL or REDIS_URL that is not a URL of its kind, without echoing it', () => {
    for (const [name, value] of [
      ['DATABASE_URL', 'mysql://user:s3cret@db/x'],
      ['DATABASE_URL', 'garbage'],
      ['AUTH_JWKS_URL', 'notaurl'],
      ['AUTH_JWKS_URL', 'ftp://idp/jwks'],
      ['REDIS_URL', 'localhost:6379'],
      ['REDIS_URL', 'http://:s3cret@cache:6379'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) =>
          error instanceof ConfigError && error.message.startsWith(name) && !error.message.includes(value),
      );
    }
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://db/x' }).databaseUrl, 'postgresql://db/x');
    // The URL parser would take the comment for part of the path.
    for (const name of ['DATABASE_URL', 'AUTH_JWKS_URL', 'REDIS_URL', 'PUBLIC_BASE_URL']) {
      const scheme = { DATABASE_URL: 'postgres', REDIS_URL: 'redis' }[name] ?? 'https';
      const value = `${scheme}://user:s3cret@host/path   # a comment`;
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) =>
          error instanceof ConfigError &&
          error.message === `${name} holds a space (an environment file keeps a comment after the value as part of it)`,
      );
    }
    assert.equal(loadConfig({ REDIS_URL: 'rediss://cache:6380/2' }).redisUrl, 'rediss://cache:6380/2');
  });

  it('reads HOST as an IP address or a host name', () => {
    for (const host of ['0.0.0.0', '::', '::1', 'localhost', 'api-1.internal', 'api.internal.']) {
      assert.equal(loadConfig({ HOST: host }).host, host);
    }
  });

  it('reads TRUST_PROXY as none, any, a hop count, or addresses and CIDRs', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8,loopback' }).trustProxy, [
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('reads the OTEL_* variables by the OpenTelemetry rules, tracing only with an endpoint', () => {
    assert.equal(loadConfig({}).tracing, undefined, 'no endpoint: no tracing');
    const base = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing;
    assert.deepEqual(base, {
      endpoint: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      serviceName: 'ledgerhook',
      resourceAttributes: {},
      batches: { scheduleDelayMs: 5000, maxExportBatchSize: 512, maxQueueSize: 2048, exportTimeoutMs: 30000 },
    });
    assert.equal(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector/otlp/' }).tracing?.endpoint,
      'https://collector/otlp/v1/traces',
    );
    const traces = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b, x-tenant = 7',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,deployment.environment.name=staging',
    }).tracing;
    assert.equal(traces?.endpoint, 'http://traces:4318/custom', 'the traces endpoint as is');
    assert.equal(traces?.protocol, 'http/json', 'the traces protocol wins over the generic one');
    assert.deepEqual(traces?.headers, { 'api-key': 'a b', 'x-tenant': '7' });
    assert.deepEqual([traces?.sampler, traces?.samplerRatio], ['parentbased_traceidratio', 0.1]);
    assert.equal(traces?.serviceName, 'from-resource');
    const batches = (env: Record<string, string>) =>
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...env }).tracing?.batches;
    assert.deepEqual(
      batches({
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '64',
        OTEL_BSP_MAX_QUEUE_SIZE: '4096',
        OTEL_BSP_EXPORT_TIMEOUT: '1000',
      }),
      { scheduleDelayMs: 200, maxExportBatchSize: 64, maxQueueSize: 4096, exportTimeoutMs: 1000 },
    );
    assert.equal(batches({ OTEL_BSP_MAX_QUEUE_SIZE: '100' })?.maxExportBatchSize, 100, 'a batch is at most the queue');
    assert.throws(
      () => batches({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '600', OTEL_BSP_MAX_QUEUE_SIZE: '500' }),
      /OTEL_BSP_MAX_EXPORT_BATCH_SIZE=600 is more than OTEL_BSP_MAX_QUEUE_SIZE=500/,
    );
    assert.throws(() => batches({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '0' }), /OTEL_BSP_MAX_EXPORT_BATCH_SIZE=0/);
    assert.equal(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SERVICE_NAME: 'api',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=x',
      }).tracing?.serviceName,
      'api',
    );
    assert.equal(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }).tracing,
      undefined,
    );
    assert.equal(
      loadConfig({
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_TRACES_SAMPLER_ARG: 'ignored',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
      }).tracing?.samplerRatio,
      1,
      'a sampler without a ratio ignores the argument',
    );
    assert.deepEqual(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=generic,x-tenant=7',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces',
      }).tracing?.headers,
      { 'api-key': 'traces', 'x-tenant': '7' },
      "the traces' own headers win key by key",
    );
    for (const exporter of ['', 'otlp', ' OTLP ']) {
      assert.ok(
        loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: exporter }).tracing,
        `OTEL_TRACES_EXPORTER=${JSON.stringify(exporter)} exports over OTLP`,
      );
    }
    assert.equal(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing,
      undefined,
      'OTEL_TRACES_EXPORTER=none: no tracing',
    );
    for (const exporter of ['console', 'zipkin', 'otlp,console']) {
      assert.throws(
        () => loadConfig({ OTEL_TRACES_EXPORTER: exporter }),
        new RegExp(`^Error: OTEL_TRACES_EXPORTER=${exporter} is not supported: use otlp or none$`),
      );
    }
    assert.throws(
      () => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Bearer s3cret' }),
      /^Error: OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 1 is not key=value$/,
    );
    assert.throws(
      () => loadConfig({ OTEL_RESOURCE_ATTRIBUTES: 'a=%zz' }),
      /OTEL_RESOURCE_ATTRIBUTES: entry 1 \(a=%zz\) has a value/,
    );
  });

  it('parses durations in ms, s, m, h and d', () => {
    assert.deepEqual(parseDurationList('50ms, 5s,5m,2h,30d'), [50, 5000, 300_000, 7_200_000, 2_592_000_000]);
  });
});
