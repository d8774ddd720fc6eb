import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImageDescriptionOutcome } from '../../api/imagedescription';

/** An image's state (spec part 2 §4): waiting, being sent and described, done with its message. */
export type DescriptionStatus = 'waiting' | 'uploading' | 'done';

export interface DescribedImage {
  id: number;
  file: File;
  /** An object URL of the file for its thumbnail, revoked when the image leaves the list. */
  preview: string;
  status: DescriptionStatus;
  /** Once done: the description, or the server's refusal. */
  outcome?: ImageDescriptionOutcome;
}

/**
 * The chosen images and their descriptions, asked one image after another (spec: images are
 * processed in turn; Analyze stays disabled until all are done). A new choice adds to the list;
 * images done keep their text, and only those waiting are sent by the next run.
 */
export function useDescriptionQueue(describe: (file: File) => Promise<ImageDescriptionOutcome>) {
  const [images, setImages] = useState<DescribedImage[]>([]);
  /** While a run lasts: which of its images is being described (1-based) and how many it has. */
  const [progress, setProgress] = useState<{ current: number; total: number } | null>(null);
  const nextId = useRef(1);
  /** The list as last rendered, for the run (which reads it when Analyze is pressed) and the clean-up on leaving. */
  const current = useRef<DescribedImage[]>([]);
  useEffect(() => {
    current.current = images;
  }, [images]);

  // Object URLs hold the file in memory until revoked: those still listed are revoked on leaving the page.
  useEffect(() => () => current.current.forEach((image) => URL.revokeObjectURL(image.preview)), []);

  const add = useCallback((files: File[]) => {
    const added = files.map((file) => ({ id: nextId.current++, file, preview: URL.createObjectURL(file), status: 'waiting' as const }));
    setImages((previous) => [...previous, ...added]);
  }, []);

  const remove = useCallback((id: number) => {
    setImages((previous) => {
      previous.filter((image) => image.id === id).forEach((image) => URL.revokeObjectURL(image.preview));
      return previous.filter((image) => image.id !== id);
    });
  }, []);

  const clear = useCallback(() => {
    setImages((previous) => {
      previous.forEach((image) => URL.revokeObjectURL(image.preview));
      return [];
    });
  }, []);

  const update = (id: number, change: Partial<DescribedImage>) =>
    setImages((previous) => previous.map((image) => (image.id === id ? { ...image, ...change } : image)));

  const analyze = useCallback(async () => {
    const queue = current.current.filter((image) => image.status === 'waiting');
    if (queue.length === 0) return;
    try {
      for (const [index, image] of queue.entries()) {
        setProgress({ current: index + 1, total: queue.length });
        update(image.id, { status: 'uploading' });
        const outcome = await describe(image.file);
        update(image.id, { status: 'done', outcome });
      }
    } finally {
      setProgress(null);
    }
  }, [describe]);

  const waiting = images.filter((image) => image.status === 'waiting').length;
  return { images, progress, running: progress !== null, waiting, add, remove, clear, analyze };
}
