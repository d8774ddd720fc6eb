import { beforeEach, describe, expect, it } from 'vitest';
import { applyLanding, toAppPath } from './landing';
import { getToken } from './token-store';

function visit(pathAndQuery: string) {
  window.history.replaceState(null, '', pathAndQuery);
}

function address(): string {
  return window.location.pathname + window.location.search;
}

describe('landing rule', () => {
  beforeEach(() => visit('/'));

  it('stores gsid as the token (memory and localStorage) and removes it from the address', () => {
    visit('/pim/?gsid=abc123&keep=1');
    applyLanding();
    expect(getToken()).toBe('abc123');
    expect(localStorage.getItem('token')).toBe('abc123');
    expect(address()).toBe('/pim/?keep=1');
  });

  it('works on any page, not only the start page', () => {
    visit('/pim/imagesets?gsid=t1');
    applyLanding();
    expect(getToken()).toBe('t1');
    expect(address()).toBe('/pim/imagesets');
  });

  it('follows a redirect that starts with /', () => {
    visit(`/pim/?gsid=t2&redirect=${encodeURIComponent('/pim/imageset?uuid=42')}`);
    applyLanding();
    expect(address()).toBe('/pim/imageset?uuid=42');
    expect(getToken()).toBe('t2');
  });

  it.each(['https://evil.example/pim/', '//evil.example/pim/', 'javascript:alert(1)', 'imagesets'])(
    'ignores the redirect %s and only strips it',
    (redirect) => {
      visit(`/pim/changelog?redirect=${encodeURIComponent(redirect)}`);
      applyLanding();
      expect(address()).toBe('/pim/changelog');
      expect(window.location.origin).toBe('http://localhost:3000');
    },
  );

  it('leaves an address without gsid or redirect alone', () => {
    visit('/pim/imagesets?state=%7B%7D');
    applyLanding();
    expect(address()).toBe('/pim/imagesets?state=%7B%7D');
    expect(getToken()).toBeNull();
  });

  it('maps full paths to router paths', () => {
    expect(toAppPath('/pim')).toBe('/');
    expect(toAppPath('/pim/')).toBe('/');
    expect(toAppPath('/pim/imagesets?x=1')).toBe('/imagesets?x=1');
    expect(toAppPath('/pimusers')).toBe('/pimusers');
  });
});
