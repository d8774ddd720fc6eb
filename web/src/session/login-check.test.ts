import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Each import is a fresh page load: a new check for its Login links. */
async function pageLoad() {
  vi.resetModules();
  return import('./login-check');
}

describe('login checks', () => {
  beforeEach(() => localStorage.clear());

  it('gives one check per page load, kept until it is taken once', async () => {
    const page = await pageLoad();
    const check = page.loginCheck();
    expect(check).toMatch(/^[\w-]{32}$/);
    expect(page.loginCheck()).toBe(check);
    const landing = await pageLoad();
    expect(landing.takeLoginCheck(check)).toBe(true);
    expect(landing.takeLoginCheck(check)).toBe(false);
    expect(localStorage.getItem(landing.LOGIN_CHECKS_KEY)).toBeNull();
  });

  it('keeps the checks of the ten latest page loads, each for an hour', async () => {
    const start = Date.now();
    const checks: string[] = [];
    for (let i = 0; i < 12; i++) checks.push((await pageLoad()).loginCheck(start + i));
    const later = await pageLoad();
    expect(later.takeLoginCheck(checks[0]!, start + 20)).toBe(false);
    expect(later.takeLoginCheck(checks[1]!, start + 20)).toBe(false);
    expect(later.takeLoginCheck(checks[2]!, start + 20)).toBe(true);
    expect(later.takeLoginCheck(checks[11]!, start + 60 * 60_000 + 12)).toBe(false);
  });

  it('takes nothing from a damaged store', async () => {
    const page = await pageLoad();
    localStorage.setItem(page.LOGIN_CHECKS_KEY, '{not json');
    expect(page.takeLoginCheck('anything-at-all-0123456789')).toBe(false);
    localStorage.setItem(page.LOGIN_CHECKS_KEY, JSON.stringify([{ value: 'x' }, 'y', null]));
    expect(page.takeLoginCheck('x')).toBe(false);
  });
});
