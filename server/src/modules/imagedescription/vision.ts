import sharp from 'sharp';
import type { VisionConfig } from '../../config.js';

/**
 * The image is sent at most this many pixels on its longer side: enough for a vision model to see
 * the layout, the hand and the state of the page (most resize to about 1000 px anyway), small
 * enough to send quickly as base64.
 */
export const VISION_IMAGE_SIDE = 1024;

export const VISION_PROMPT =
  'You help an archivist catalogue a scanned manuscript or document page. Describe this page in three to five short ' +
  'sentences: what kind of document it seems to be, its layout (columns, headings, decoration, illustrations, seals, ' +
  'marginal notes), the script or hand and the language if you can tell, and its condition (stains, damage, fading). ' +
  'Say so where you are unsure, and do not make up text you cannot read.';

/** What the vision model said, or why it said nothing. */
export type VisionAnswer = { ok: true; text: string } | { ok: false; reason: string };

/**
 * A vision model behind an OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp's
 * server, a hosted one), asked for a short archival description of a page. It never throws: a
 * failure is an answer that says why, so the built-in description is never lost to it.
 */
export class VisionClient {
  constructor(readonly config: VisionConfig) {}

  /** The model's name and where it runs, for the description's heading. */
  get label(): string {
    return `${this.config.model} at ${this.config.host}`;
  }

  async describe(imagePath: string): Promise<VisionAnswer> {
    let image: Buffer;
    try {
      image = await sharp(imagePath, { autoOrient: true, limitInputPixels: false })
        .flatten({ background: '#ffffff' })
        .resize(VISION_IMAGE_SIDE, VISION_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 85 })
        .toBuffer();
    } catch (err) {
      return { ok: false, reason: `the image could not be prepared for it (${messageOf(err)})` };
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    const body = JSON.stringify({
      model: this.config.model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: VISION_PROMPT },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${image.toString('base64')}` } },
          ],
        },
      ],
      temperature: 0.2,
      max_tokens: 400,
      stream: false,
    });
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.config.url}/chat/completions`, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.config.timeoutMs) });
      text = await res.text();
    } catch (err) {
      if (err instanceof DOMException && err.name === 'TimeoutError') {
        return { ok: false, reason: `it did not answer within ${this.config.timeoutMs / 1000} s (PIM_VISION_TIMEOUT_S)` };
      }
      return { ok: false, reason: `it could not be reached (${messageOf(err)})` };
    }
    if (!res.ok) return { ok: false, reason: `it answered HTTP ${res.status}${errorOf(text)}` };
    const content = contentOf(text);
    return content ? { ok: true, text: content } : { ok: false, reason: 'its answer held no description' };
  }
}

/** The text of the first choice: a string, or the text parts of a list (some servers answer so). */
function contentOf(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  if (typeof content === 'string') return content.trim() || null;
  if (!Array.isArray(content)) return null;
  const parts = content.map((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : ''));
  return parts.join('').trim() || null;
}

/** ": <the server's own words>" from an OpenAI-style error body, or the start of any other body. */
function errorOf(text: string): string {
  let said: string | undefined;
  try {
    const error = (JSON.parse(text) as { error?: { message?: unknown } | string }).error;
    said = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : undefined;
  } catch {
    said = text.trim();
  }
  return said ? `: ${said.slice(0, 200)}` : '';
}

function messageOf(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}
