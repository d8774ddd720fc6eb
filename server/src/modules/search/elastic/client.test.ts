import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../config.js';
import { AppError } from '../../../platform/errors.js';
import { closedPortUrl, startElasticCluster, type ElasticTestCluster } from '../../../test-support/elastic-cluster.js';
import {
  noShardAvailable,
  proxyBadGateway,
  queryShardFailure,
  rejectedExecution,
  unauthenticated,
  unauthorized,
} from '../../../test-support/elastic-responses.js';
import { ElasticClient } from './client.js';

describe('ELASTICSEARCH_* configuration', () => {
  it('is off unless ELASTICSEARCH_URL is set', () => {
    expect(loadConfig({}).elasticsearch).toBeUndefined();
  });

  it('takes the credentials out of the URL, keeps its path and reads the defaults', () => {
    const config = loadConfig({ ELASTICSEARCH_URL: 'https://el%40stic:p%3Ass@search.example.org:9243/es/' }).elasticsearch;
    expect(config).toEqual({
      url: 'https://search.example.org:9243/es',
      host: 'search.example.org:9243',
      auth: { kind: 'basic', username: 'el@stic', password: 'p:ss' },
      indexPrefix: 'pim-',
      timeoutMs: 30_000,
    });
  });

  it('reads an API key, another prefix (even none) and time limit', () => {
    const env = { ELASTICSEARCH_URL: 'http://localhost:9200', ELASTICSEARCH_API_KEY: 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==' };
    expect(loadConfig({ ...env, ELASTICSEARCH_INDEX_PREFIX: 'digitisation-', ELASTICSEARCH_TIMEOUT_S: '2.5' }).elasticsearch).toEqual({
      url: 'http://localhost:9200',
      host: 'localhost:9200',
      auth: { kind: 'apiKey', key: env.ELASTICSEARCH_API_KEY },
      indexPrefix: 'digitisation-',
      timeoutMs: 2500,
    });
    expect(loadConfig({ ...env, ELASTICSEARCH_INDEX_PREFIX: '' }).elasticsearch?.indexPrefix).toBe('');
  });

  it.each([
    [{ ELASTICSEARCH_URL: 'ftp://search.example.org' }, 'ELASTICSEARCH_URL must be an http:// or https:// URL'],
    [{ ELASTICSEARCH_URL: 'search.example.org:9200' }, 'ELASTICSEARCH_URL must be an http:// or https:// URL'],
    [{ ELASTICSEARCH_URL: 'http://localhost:9200/?pretty' }, 'must not have a query'],
    [{ ELASTICSEARCH_API_KEY: 'key' }, 'ELASTICSEARCH_API_KEY needs ELASTICSEARCH_URL'],
    [{ ELASTICSEARCH_URL: 'http://pim:secret@localhost:9200', ELASTICSEARCH_API_KEY: 'key' }, 'not both'],
    [{ ELASTICSEARCH_URL: 'http://localhost:9200', ELASTICSEARCH_INDEX_PREFIX: 'PIM-' }, 'ELASTICSEARCH_INDEX_PREFIX must be lower case'],
    [{ ELASTICSEARCH_URL: 'http://localhost:9200', ELASTICSEARCH_INDEX_PREFIX: '_pim' }, 'not starting with'],
    [{ ELASTICSEARCH_URL: 'http://localhost:9200', ELASTICSEARCH_TIMEOUT_S: '0' }, 'ELASTICSEARCH_TIMEOUT_S must be more than 0 seconds'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('ElasticClient', () => {
  let cluster: ElasticTestCluster;
  beforeEach(async () => {
    cluster = await startElasticCluster();
  });
  afterEach(() => cluster.close());

  const failure = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  };

  it('sends JSON below the configured path with the user and password of the URL as Basic auth', async () => {
    const config = loadConfig({ ELASTICSEARCH_URL: `${cluster.url.replace('//', '//el%40stic:p%3Ass@')}/es/` }).elasticsearch!;
    cluster.answer({ status: 200, body: { acknowledged: true } });
    const res = await new ElasticClient(config).send({ method: 'PUT', path: '/pim-a', query: { ignore_unavailable: 'true' }, json: { a: 'ä' } });
    expect(res).toEqual({ status: 200, body: { acknowledged: true } });
    const [req] = cluster.requests;
    expect(req).toMatchObject({ method: 'PUT', path: '/es/pim-a', query: { ignore_unavailable: 'true' }, body: '{"a":"ä"}' });
    expect(req!.headers).toMatchObject({
      authorization: `Basic ${Buffer.from('el@stic:p:ss').toString('base64')}`,
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('sends NDJSON, each line ending in a newline, with the API key', async () => {
    cluster.answer({ status: 200, body: { took: 1, responses: [] } });
    await new ElasticClient(cluster.config({ auth: { kind: 'apiKey', key: 'a2V5OnNlY3JldA==' } })).send({ method: 'POST', path: '/_msearch', ndjson: ['{}', '{"size":0}'] });
    const [req] = cluster.requests;
    expect(req!.body).toBe('{}\n{"size":0}\n');
    expect(req!.headers).toMatchObject({ authorization: 'ApiKey a2V5OnNlY3JldA==', 'content-type': 'application/x-ndjson' });
  });

  it('sends no Authorization header without credentials, and answers a status the caller accepts', async () => {
    cluster.answer({ status: 404 });
    expect(await new ElasticClient(cluster.config()).send({ method: 'HEAD', path: '/pim-a', accept: [404] })).toEqual({ status: 404, body: null });
    expect(cluster.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('says which cluster cannot be reached and why', async () => {
    const url = await closedPortUrl();
    const host = new URL(url).host;
    const err = await failure(new ElasticClient({ ...cluster.config(), url, host }).send({ method: 'GET', path: '/' }));
    expect(err).toMatchObject({ status: 502, code: 'search_unreachable' });
    expect(err.message).toBe(`The search cluster at ${host} cannot be reached: connect ECONNREFUSED ${host}.`);
  });

  it('gives up after ELASTICSEARCH_TIMEOUT_S when the cluster does not answer', async () => {
    cluster.answer({ hang: true });
    const err = await failure(new ElasticClient(cluster.config({ timeoutMs: 300 })).send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(err).toMatchObject({ status: 504, code: 'search_timeout' });
    expect(err.message).toBe(`The search cluster at ${cluster.config().host} did not answer within 0.3 s (ELASTICSEARCH_TIMEOUT_S).`);
  });

  it('turns refused credentials (401) and privileges (403) into a 502 that names the settings', async () => {
    cluster.answer({ status: 401, body: unauthenticated('/pim-a/_search') }, { status: 403, body: unauthorized('pim-a') });
    const client = new ElasticClient(cluster.config({ auth: { kind: 'basic', username: 'pim', password: 'wrong' } }));
    const refused = await failure(client.send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(refused).toMatchObject({ status: 502, code: 'search_credentials_refused' });
    expect(refused.message).toContain('refused the credentials PIM signs in with (401: unable to authenticate user [pim] for REST request [/pim-a/_search])');
    expect(refused.message).toContain('ELASTICSEARCH_URL or ELASTICSEARCH_API_KEY');
    const forbidden = await failure(client.send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(forbidden).toMatchObject({ status: 502, code: 'search_credentials_refused' });
    expect(forbidden.message).toContain('refused PIM this action with its credentials (403: action [indices:data/read/search] is unauthorized');
  });

  it('answers 503 "try again" when the cluster is busy (429)', async () => {
    cluster.answer({ status: 429, body: rejectedExecution });
    const err = await failure(new ElasticClient(cluster.config()).send({ method: 'POST', path: '/pim-a/_bulk', ndjson: ['{}'] }));
    expect(err).toMatchObject({ status: 503, code: 'search_busy' });
    expect(err.message).toBe(`The search cluster at ${cluster.config().host} is busy right now; try again in a moment.`);
  });

  it('passes a refused request (400) on with the root cause’s reason and the cluster’s error body', async () => {
    cluster.answer({ status: 400, body: queryShardFailure('pim-a') });
    const err = await failure(new ElasticClient(cluster.config()).send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(err).toMatchObject({ status: 400, code: 'search_request_refused', message: 'failed to create query: For input string: "many"' });
    expect(err.details).toEqual({ elastic: queryShardFailure('pim-a') });
  });

  it('turns a failing cluster (5xx) or a proxy’s HTML page into a 502 with what it said', async () => {
    cluster.answer({ status: 503, body: noShardAvailable }, { status: 502, body: proxyBadGateway, contentType: 'text/html' });
    const client = new ElasticClient(cluster.config());
    const down = await failure(client.send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(down).toMatchObject({ status: 502, code: 'search_cluster_failed' });
    expect(down.message).toBe(`The search cluster at ${cluster.config().host} answered 503: all shards failed`);
    const proxy = await failure(client.send({ method: 'POST', path: '/pim-a/_search', json: {} }));
    expect(proxy.message).toContain('answered 502: <html>');
  });
});
