import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { upload } from './upload-files.js';

export { createSet } from './upload-files.js';

export type Rgb = [number, number, number];
export const RED: Rgb = [255, 0, 0];
export const GREEN: Rgb = [0, 255, 0];
export const BLUE: Rgb = [0, 0, 255];
export const YELLOW: Rgb = [255, 255, 0];

/** A PNG of width x height with four coloured quadrants: red | green over blue | yellow. */
export async function quadrantImage(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < height / 2;
      const left = x < width / 2;
      raw.set(top ? (left ? RED : GREEN) : left ? BLUE : YELLOW, (y * width + x) * 3);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Uploads an image into a set through the upload API, as a user does; gives the new image's id. */
export async function uploadImage(
  app: FastifyInstance,
  auth: { authorization: string },
  setId: string,
  bytes: Buffer,
  fileName = 'image.png',
): Promise<string> {
  const res = await upload(app, auth, setId, [{ fileName, bytes }]);
  if (res.status !== 200 && res.status !== 201) throw new Error(`could not upload ${fileName}: ${res.status} ${res.res.body}`);
  return res.json.documentImages[0].uuid as string;
}

/** Decoded pixels of an image answer, to look at sizes and colours. */
export async function pixelsOf(bytes: Buffer) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: info.channels,
    at(x: number, y: number): Rgb {
      const i = (y * info.width + x) * info.channels;
      return info.channels >= 3 ? [data[i]!, data[i + 1]!, data[i + 2]!] : [data[i]!, data[i]!, data[i]!];
    },
  };
}

/** Colours equal within a tolerance (JPEG and WebP are lossy). */
export function near(actual: Rgb, expected: Rgb, tolerance = 24): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
}
