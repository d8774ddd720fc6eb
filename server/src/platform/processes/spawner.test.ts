import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_NICE } from './priority.js';
import { SpawnFailed, Spawner } from './spawner.js';

describe('the spawner', () => {
  const spawner = new Spawner();
  afterAll(() => spawner.close());

  it("starts a program from its own process, not the server's, and gives back its output and exit code", async () => {
    const result = await spawner.run('sh', ['-c', 'echo "parent $PPID"; echo warned >&2; exit 3']);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('warned\n');
    const parent = Number(/parent (\d+)/.exec(result.stdout.toString('utf8'))?.[1]);
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
  });

  it('keeps only the end of a long stderr, and binary stdout as it was', async () => {
    const result = await spawner.run('sh', ['-c', 'printf "\\000\\377\\001"; i=0; while [ $i -lt 500 ]; do echo "line $i" >&2; i=$((i+1)); done'], { stderrKept: 20 });
    expect([...result.stdout]).toEqual([0, 255, 1]);
    expect(result.stderr).toHaveLength(20);
    expect(result.stderr.endsWith('line 499\n')).toBe(true);
  });

  it("runs programs at background priority, behind the server's requests", async () => {
    const result = await spawner.run('sh', ['-c', 'cut -d " " -f 19 /proc/$$/stat']);
    expect(Number(result.stdout.toString('utf8'))).toBe(BACKGROUND_NICE);
  });

  it("runs programs in a session of their own whose scheduling group is lowered, not the server's", async () => {
    const result = await spawner.run('sh', ['-c', 'cut -d " " -f 6 /proc/$$/stat; cat /proc/$$/autogroup 2>/dev/null || echo none']);
    const [session, group] = result.stdout.toString('utf8').trim().split('\n');
    const ownSession = Number(fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[3]);
    expect(Number(session)).toBeGreaterThan(0);
    expect(Number(session)).not.toBe(ownSession);
    // Kernels built without autogroups have no such file; elsewhere the group's nice is read back.
    if (group !== 'none') expect(group).toMatch(new RegExp(`nice ${BACKGROUND_NICE}$`));
    if (fs.existsSync('/proc/self/autogroup')) expect(fs.readFileSync('/proc/self/autogroup', 'utf8')).not.toMatch(new RegExp(`nice ${BACKGROUND_NICE}\\n?$`));
  });

  it('says so when a program cannot be started', async () => {
    await expect(spawner.run('/no/such/program', [])).rejects.toBeInstanceOf(SpawnFailed);
  });

  it('kills the program when the caller aborts', async () => {
    const controller = new AbortController();
    const running = spawner.run('sleep', ['60'], { signal: controller.signal });
    const started = await spawner.run('true', []);
    expect(started.code).toBe(0);
    controller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
  });

  it('ends the programs it runs when it is closed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-spawner-'));
    const pidFile = path.join(dir, 'pid');
    const running = spawner.run('sh', ['-c', `echo $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile} && exec sleep 60`]).catch(() => undefined);
    await vi.waitFor(() => expect(fs.existsSync(pidFile)).toBe(true), { timeout: 60_000, interval: 10 });
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    spawner.close();
    await running;
    // Gone, or a zombie waiting for the machine's init to reap it.
    const state = () => /^\d+ \(.*\) (\w)/.exec(fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, 'utf8') : '')?.[1] ?? 'gone';
    await vi.waitFor(() => expect(['gone', 'Z']).toContain(state()), { timeout: 60_000, interval: 10 });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts its process again after it ended', async () => {
    spawner.close();
    const result = await spawner.run('sh', ['-c', 'echo again']);
    expect(result.stdout.toString('utf8')).toBe('again\n');
  });
});
