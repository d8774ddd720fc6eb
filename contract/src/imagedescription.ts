import { z } from 'zod';

/**
 * Image description (spec part 2 §2 "/pim/imagedescription", §3 "Describe-image result", §7
 * `POST pim/describeimage`): one image per request, in the multipart part `filepond`; the answer
 * is keyed by the file's name. Nothing is stored.
 */

/** The multipart part the image comes in. */
export const DESCRIBE_IMAGE_FILE_FIELD = 'filepond';
/** The largest image accepted (bytes): a describe call reads the file once and keeps nothing. */
export const DESCRIBE_IMAGE_MAX_BYTES = 200 * 1024 * 1024;
/** What the file picker offers. */
export const DESCRIBE_IMAGE_ACCEPT = 'image/*';

/** `{ "<file name>": "<description>" }`: the description is plain text, one finding a line. */
export const describeImageResponseSchema = z
  .record(z.string(), z.string())
  .describe('the uploaded file name, with the description of the image as plain text (one finding a line)');
export type DescribeImageResponse = z.infer<typeof describeImageResponseSchema>;
