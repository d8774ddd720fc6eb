import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * The browser's XMLHttpRequest, the upload's boundary to the server, as a test drives it: it
 * records what was sent and answers when told to, reporting upload progress on the way.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  aborted = false;

  abort() {
    this.aborted = true;
    act(() => this.onabort?.());
  }

  /** The parts in the order they were appended: text as it is, files by name. */
  parts(): [string, string][] {
    return [...(this.body?.entries() ?? [])].map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}`]);
  }

  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }

  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    act(() => this.onload?.());
  }
}

export function installFakeXhr(): void {
  beforeEach(() => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => vi.unstubAllGlobals());
}
