import { beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_CHECKS_KEY, loginCheck } from '../session/login-check';
import { clearStoredSession, getToken, setToken } from '../session/token-store';
import { applyLanding, toAppPath } from './landing';

function visit(pathAndQuery: string) {
  window.history.replaceState(null, '', pathAndQuery);
}

function address(): string {
  return window.location.pathname + window.location.search;
}

describe('landing rule', () => {
  beforeEach(() => visit('/'));

  /** The check a Login link of this browser carried, as the sign-in brings it back. */
  const check = () => `loginCheck=${loginCheck()}`;

  it('stores gsid as the token (memory and localStorage) and removes it and the check from the address', () => {
    visit(`/pim/?gsid=abc123&keep=1&${check()}`);
    applyLanding();
    expect(getToken()).toBe('abc123');
    expect(localStorage.getItem('token')).toBe('abc123');
    expect(address()).toBe('/pim/?keep=1');
  });

  it('works on any page, not only the start page', () => {
    visit(`/pim/imagesets?gsid=t1&${check()}`);
    applyLanding();
    expect(getToken()).toBe('t1');
    expect(address()).toBe('/pim/imagesets');
  });

  it('follows a redirect that starts with /', () => {
    visit(`/pim/?gsid=t2&redirect=${encodeURIComponent('/pim/imageset?uuid=42')}&${check()}`);
    applyLanding();
    expect(address()).toBe('/pim/imageset?uuid=42');
    expect(getToken()).toBe('t2');
  });

  it('ignores a gsid without a login check this browser keeps: the current session stays', () => {
    setToken('mine');
    for (const query of ['gsid=theirs', 'gsid=theirs&loginCheck=a-check-made-elsewhere-0123456789', 'gsid=theirs&loginCheck=']) {
      visit(`/pim/imagesets?${query}&redirect=${encodeURIComponent('/pim/changelog')}`);
      applyLanding();
      expect(getToken(), query).toBe('mine');
      expect(address(), query).toBe('/pim/changelog');
    }
  });

  it('takes a login check once: the same landing address a second time switches nothing', () => {
    const landing = `/pim/?gsid=first&${check()}`;
    visit(landing);
    applyLanding();
    expect(getToken()).toBe('first');
    setToken('later');
    visit(landing);
    applyLanding();
    expect(getToken()).toBe('later');
  });

  it('keeps the check across page loads and tabs (localStorage), and keeps it again after signing out', () => {
    const value = loginCheck();
    expect(localStorage.getItem(LOGIN_CHECKS_KEY)).toContain(value);
    clearStoredSession();
    expect(loginCheck()).toBe(value);
    visit(`/pim/?gsid=back&loginCheck=${value}`);
    applyLanding();
    expect(getToken()).toBe('back');
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
