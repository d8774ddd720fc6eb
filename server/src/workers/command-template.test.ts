import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run.js';
import { modelValues, parseCommandTemplate, renderCommand, runShell } from './command-template.js';
import type { ClaimedWorkerJob } from './client.js';

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

const worker = (...args: string[]) => ['worker', '--server', 'http://127.0.0.1:9', '--key', 'k', ...args];

describe('command templates of pim worker', () => {
  it('passes every value to the command as one word, whatever it holds', async () => {
    const template = parseCommandTemplate(`P2PaLA=printf '%s\\n' {label} {exp_name} {image}`);
    const hostile = ["f. 1' r", '$(touch pwned) `id` "q" ; rm -rf x', '/tmp/a b/\nc.png'];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pim-template-'));
    try {
      const command = renderCommand(template, { label: hostile[0], exp_name: hostile[1], image: hostile[2] });
      const result = await runShell(command, { cwd: dir });
      expect(result.code).toBe(0);
      expect(result.stdout.toString()).toBe(`${hostile.join('\n')}\n`);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows the image placeholders and the settings of the type, and nothing else', () => {
    expect(parseCommandTemplate('KrakenHocr=kraken -i {image} {output} ocr -m {krakenModel}')).toMatchObject({ type: 'KrakenHocr', writesFile: true });
    expect(parseCommandTemplate('P2PaLA=p2pala {image} {exp_name} {line_width}').writesFile).toBe(false);
    expect(() => parseCommandTemplate('P2PaLA=p2pala {image} {krakenModel} {imgae}')).toThrow(
      /^The command for P2PaLA names \{krakenModel\}, \{imgae\}, which are not known\. It may use \{image\}, \{output\}/,
    );
    expect(() => parseCommandTemplate('Loghi=loghi {image}')).toThrow('--command names the job type "Loghi", which does not exist.');
    expect(() => parseCommandTemplate('p2pala {image}')).toThrow(/must be Type=command/);
  });

  it('fills a model setting with the downloaded file\'s path and its Id form with the uuid; both empty when the job names none', () => {
    expect(parseCommandTemplate('KrakenHocr=kraken -m {krakenModel} --id {krakenModelId}').placeholders).toEqual(['krakenModel', 'krakenModelId']);
    expect(parseCommandTemplate('SiameseNetwork=siamese {siameseNetworkModel} {siameseNetworkModelId}').type).toBe('SiameseNetwork');
    expect(() => parseCommandTemplate('P2PaLA=p2pala {krakenModelId}')).toThrow(/names \{krakenModelId\}, which is not known/);
    const id = '0b7a4d1e-4a5b-4c3d-8e9f-0123456789ab';
    const job = { settings: { jobType: 'SiameseNetwork', siameseNetworkModelId: id } } as unknown as ClaimedWorkerJob;
    const models = { siameseNetworkModelId: { path: '/tmp/job/models/siameseNetworkModelId/siamese.zip' } } as never;
    expect(modelValues(job, models)).toMatchObject({ siameseNetworkModel: '/tmp/job/models/siameseNetworkModelId/siamese.zip', siameseNetworkModelId: id, krakenModel: '', krakenModelId: '' });
    const template = parseCommandTemplate('KrakenHocr=kraken -m {krakenModel} --id {krakenModelId} {image}');
    const none = { settings: { jobType: 'KrakenHocr' } } as unknown as ClaimedWorkerJob;
    expect(renderCommand(template, { ...none.settings, ...modelValues(none, {}), image: 'a.png' })).toBe("kraken -m '' --id '' 'a.png'");
  });

  it('refuses at start, with exit code 2, what it could not run', async () => {
    const unknown = captured();
    expect(await runCli(worker('--types', 'P2PaLA', '--command', 'P2PaLA=p2pala {image} {colour}'), {}, unknown.io)).toBe(2);
    expect(unknown.err.join('\n')).toMatch(/^The command for P2PaLA names \{colour\}, which is not known\./);

    const noTemplate = captured();
    expect(await runCli(worker('--types', 'P2PaLA,Tesseract4Hocr'), {}, noTemplate.io)).toBe(2);
    expect(noTemplate.err.join('\n')).toContain("This worker cannot run P2PaLA jobs: give it a command with --command P2PaLA='...' (per image) or --job-command P2PaLA='...' (once per job) (it runs by itself only Tesseract4Hocr).");

    const notServed = captured();
    expect(await runCli(worker('--types', 'Tesseract4Hocr', '--command', 'P2PaLA=p2pala {image}'), {}, notServed.io)).toBe(2);
    expect(notServed.err.join('\n')).toContain('A command is given for P2PaLA, which is not in --types.');

    const badServer = captured();
    expect(await runCli(['worker', '--server', 'pim.example.org', '--key', 'k', '--types', 'Tesseract4Hocr'], {}, badServer.io)).toBe(2);

    const noKey = captured();
    expect(await runCli(['worker', '--server', 'https://pim.example.org', '--types', 'Tesseract4Hocr'], {}, noKey.io)).toBe(2);
    expect(noKey.err.join('\n')).toContain('Give the API key with --key KEY or --key-file FILE.');
    const missingFile = captured();
    const absent = path.join(os.tmpdir(), `pim-no-key-${process.pid}`);
    expect(await runCli(['worker', '--server', 'https://pim.example.org', '--key-file', absent, '--types', 'Tesseract4Hocr'], {}, missingFile.io)).toBe(2);
    expect(missingFile.err.join('\n')).toContain(`--key-file ${absent} cannot be read: ENOENT`);

    const help = captured();
    expect(await runCli(['worker', '--help'], {}, help.io)).toBe(0);
    expect(help.out.join('\n')).toMatch(/--command <command>\s+Type='command' run per image/);
  });
});
