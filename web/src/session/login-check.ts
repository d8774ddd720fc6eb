/**
 * Login checks: a random one-time value the Login link carries (`loginCheck`) and this browser
 * keeps until the sign-in it started comes back with it next to `gsid`. The landing page takes a
 * `gsid` only with a check it keeps, so a link carrying someone else's session (a login CSRF)
 * cannot switch the signed-in user: that link's check was never kept here.
 *
 * The checks live in localStorage, so a sign-in started in one tab may finish in another; a few
 * are kept at once (one per page load that showed a Login link), each for an hour at most.
 */
export const LOGIN_CHECKS_KEY = 'loginChecks';
const MAX_KEPT = 10;
const MAX_AGE_MS = 60 * 60_000;

interface KeptCheck {
  value: string;
  at: number;
}

let current: string | undefined;

function readKept(now: number): KeptCheck[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(LOGIN_CHECKS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (c): c is KeptCheck => typeof c?.value === 'string' && typeof c?.at === 'number' && now - c.at < MAX_AGE_MS,
    );
  } catch {
    return [];
  }
}

function writeKept(checks: KeptCheck[]): void {
  try {
    if (checks.length === 0) localStorage.removeItem(LOGIN_CHECKS_KEY);
    else localStorage.setItem(LOGIN_CHECKS_KEY, JSON.stringify(checks.slice(-MAX_KEPT)));
  } catch {
    // Storage full or blocked: the sign-in then lands without taking the token, as a foreign link would.
  }
}

function randomValue(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The check of this page load's Login links, kept in this browser. Kept again when it is gone
 * (signing out clears localStorage), so calling it while rendering a link is safe and enough.
 */
export function loginCheck(now = Date.now()): string {
  current ??= randomValue();
  const kept = readKept(now);
  if (!kept.some((c) => c.value === current)) writeKept([...kept, { value: current, at: now }]);
  return current;
}

/** Whether this browser keeps `value` (a sign-in it started); a kept value is forgotten, so it works once. */
export function takeLoginCheck(value: string | null, now = Date.now()): boolean {
  const kept = readKept(now);
  const found = value !== null && kept.some((c) => c.value === value);
  writeKept(kept.filter((c) => c.value !== value));
  if (found && value === current) current = undefined;
  return found;
}
