import type { JobType } from '@pim/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app.js';

/**
 * Two workers never run the same job. On PostgreSQL the claimers below run truly at once, each on
 * its own connection (on PGlite they take turns, and the test shows the same outcome).
 */
describe('claiming at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives every job to exactly one of many claimers asking at the same time', async () => {
    const queue = t.app.services.jobQueue;
    const types: JobType[] = ['Epubify', 'SplitPDF', 'ConvertToTiledTiff'];
    const jobs = Array.from({ length: 600 }, (_, i) => ({
      type: types[i % types.length]!,
      priority: i % 7,
      settings: {},
      setId: null,
      ownerId: null,
      apiKeyId: null,
    }));
    await queue.enqueueMany(jobs);

    // Eight claimers, some for one type, some for several, all until nothing is left for them.
    const wants: JobType[][] = [types, types, types, ['Epubify'], ['SplitPDF'], ['ConvertToTiledTiff'], ['Epubify', 'SplitPDF'], types];
    const claimed = await Promise.all(
      wants.map(async (mine, n) => {
        const got: string[] = [];
        for (;;) {
          const job = await queue.claim(mine, { name: `claimer ${n}`, host: null, versions: {} });
          if (!job) return got;
          expect(mine).toContain(job.row.type);
          got.push(job.row.uuid);
          await queue.complete(job.row.uuid, job.leaseToken);
        }
      }),
    );
    const all = claimed.flat();
    expect(all.length).toBe(600);
    expect(new Set(all).size).toBe(600);
    const runs = await t.app.database.db.selectFrom('job').select(['state', 'attempts']).execute();
    expect(runs.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
    if (t.app.database.kind === 'postgres') expect(claimed.filter((got) => got.length > 0).length).toBeGreaterThan(1);
  });
});
