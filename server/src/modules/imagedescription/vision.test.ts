import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { multipartBody } from '../../test-support/multipart-body.js';
import { call, createTestApp, signedInUser, type TestApp } from '../../test-support/test-app.js';
import { textPage } from '../../test-support/text-images.js';
import { VISION_IMAGE_SIDE } from './vision.js';

/** What the test's vision server was sent, and how it answers the next request. */
interface Exchange {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[];
  };
}

/**
 * A small server on the loopback that speaks OpenAI's chat-completions API as Ollama, vLLM and
 * llama.cpp's server do: it records each request and answers as the test says.
 */
function visionServer() {
  const received: Exchange[] = [];
  let answer: (res: http.ServerResponse) => void = () => undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      answer(res);
    });
  });
  return {
    received,
    answerWith: (next: (res: http.ServerResponse) => void) => {
      answer = next;
    },
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'test-vision',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

describe('image description with a vision model (PIM_VISION_URL)', () => {
  const vision = visionServer();
  let t: TestApp;
  let auth: Record<string, string>;
  let page: Buffer;

  beforeAll(async () => {
    const address = await vision.start();
    t = await createTestApp({ PIM_VISION_URL: `${address}/v1/`, PIM_VISION_MODEL: 'test-vision', PIM_VISION_API_KEY: 'sk-test', PIM_VISION_TIMEOUT_S: '2' });
    auth = (await signedInUser(t.app)).auth;
    // A wide page, so the image sent is scaled down to the side the model gets.
    page = await sharp(await textPage(['A letter of the town council', 'about the repair of the bridge', 'written in the year 1784']))
      .resize(2800, 800, { fit: 'fill' })
      .png()
      .toBuffer();
  });
  afterEach(() => vision.received.splice(0));
  afterAll(async () => {
    await t.close();
    await vision.stop();
  });

  const describeImage = async () => {
    const body = multipartBody([{ name: 'filepond', fileName: 'letter.png', bytes: page }]);
    const res = await call(t.app, { method: 'POST', url: '/api/pim/describeimage', headers: { ...auth, ...body.headers }, payload: body.payload });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json['letter.png'] as string;
  };

  it("asks the model with the image as a data URL and gives its text after the built-in one, under the model's name", async () => {
    vision.answerWith((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('A short letter in a modern typeface.'))));
    const text = await describeImage();

    expect(vision.received).toHaveLength(1);
    const [request] = vision.received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body.model).toBe('test-vision');
    const parts = request!.body.messages[0]!.content;
    expect(parts[0]).toMatchObject({ type: 'text', text: expect.stringContaining('archivist') });
    const url = parts[1]!.image_url!.url;
    expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const sent = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
    expect({ format: sent.format, width: sent.width, height: sent.height }).toEqual({ format: 'jpeg', width: VISION_IMAGE_SIDE, height: 293 });

    expect(text).toMatch(/^Size: 2,800 × 800 pixels/);
    const host = new URL(t.config.vision!.url).host;
    expect(text.endsWith(`\n\nVision model (test-vision at ${host}):\nA short letter in a modern typeface.`)).toBe(true);
  });

  it('keeps the built-in description and says why when the model fails', async () => {
    vision.answerWith((res) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model is loading' } })));
    const failed = await describeImage();
    expect(failed).toMatch(/^Size: 2,800 × 800 pixels/);
    expect(failed).toContain("It could not describe this image: it answered HTTP 503: model is loading. The description above is PIM's own.");

    // A server that never answers: the time limit of PIM_VISION_TIMEOUT_S (2 s here) ends the wait.
    vision.answerWith(() => undefined);
    const silent = await describeImage();
    expect(silent).toMatch(/^Size: 2,800 × 800 pixels/);
    expect(silent).toContain("It could not describe this image: it did not answer within 2 s (PIM_VISION_TIMEOUT_S). The description above is PIM's own.");
  });

  it('says the model could not be reached when nothing listens at its address', async () => {
    const closed = visionServer();
    const address = await closed.start();
    await closed.stop();
    const other = await createTestApp({ PIM_VISION_URL: address, PIM_VISION_MODEL: 'gone' });
    try {
      const body = multipartBody([{ name: 'filepond', fileName: 'letter.png', bytes: page }]);
      const res = await call(other.app, { method: 'POST', url: '/api/pim/describeimage', headers: { ...(await signedInUser(other.app)).auth, ...body.headers }, payload: body.payload });
      expect(res.status).toBe(200);
      expect(res.json['letter.png']).toMatch(/^Size: 2,800 × 800 pixels/);
      expect(res.json['letter.png']).toMatch(/\n\nVision model \(gone at 127\.0\.0\.1:\d+\):\nIt could not describe this image: it could not be reached \(.+\)\./);
    } finally {
      await other.close();
    }
  });
});

describe('PIM_VISION_* settings', () => {
  it('are read into the config, and refused when half given', () => {
    expect(loadConfig({ PIM_VISION_URL: 'http://gpu.example.org:11434/v1/', PIM_VISION_MODEL: 'qwen2.5vl:7b' }).vision).toEqual({
      url: 'http://gpu.example.org:11434/v1',
      host: 'gpu.example.org:11434',
      model: 'qwen2.5vl:7b',
      apiKey: undefined,
      timeoutMs: 60_000,
    });
    expect(loadConfig({}).vision).toBeUndefined();
    expect(() => loadConfig({ PIM_VISION_URL: 'http://gpu.example.org:11434/v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ PIM_VISION_MODEL: 'llava' })).toThrow(/PIM_VISION_MODEL and PIM_VISION_API_KEY need PIM_VISION_URL/);
    expect(() => loadConfig({ PIM_VISION_URL: 'ftp://gpu.example.org/v1', PIM_VISION_MODEL: 'llava' })).toThrow(/PIM_VISION_URL must be the http/);
  });
});
