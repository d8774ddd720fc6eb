import fsp from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_TESSERACT_LANGUAGE } from '../modules/recognition/service.js';
import { TesseractError, tesseractVersion } from '../platform/tesseract/cli.js';
import { rewriteHocr } from '../platform/tesseract/hocr-rewrite.js';
import { PageImageError, preparePage } from '../platform/tesseract/page-image.js';
import { recognisePage, type TesseractModel } from '../platform/tesseract/recognise.js';
import { type ImageTask, ImageSkipped, JobFailure, type MadeFile, type ImageRunner } from './runners.js';

/**
 * Tesseract4Hocr on a remote worker, without the database: each downloaded image read by the
 * same code as the server's executor (the page prepared by sharp, Tesseract in a child process,
 * its hOCR put back in the image's pixels and naming the image's file), the hOCR uploaded as the
 * image's transcription. Reads with the job's uploaded Tesseract model as the server does (the
 * downloaded `.traineddata` under its language's name in a tessdata folder of its own), or with
 * Tesseract's own English when the job names none.
 */
export class TesseractRunner implements ImageRunner {
  readonly type = 'Tesseract4Hocr' as const;

  async versions(): Promise<Record<string, string>> {
    try {
      return { tesseract: await tesseractVersion() };
    } catch (err) {
      throw new JobFailure(err instanceof Error ? err.message : String(err));
    }
  }

  async runImage(task: ImageTask): Promise<MadeFile> {
    const { image } = task;
    try {
      const prepared = await preparePage(task.imagePath, path.join(task.workDir, 'page.tif'));
      const hocr = await recognisePage(prepared.path, await modelOf(task), task.signal);
      const target = path.join(task.workDir, `${image.uuid}.hocr`);
      await fsp.writeFile(target, rewriteHocr(hocr, { imageName: image.fileName, scaleX: prepared.scaleX, scaleY: prepared.scaleY }));
      return { path: target, fileName: `${image.label}.hocr` };
    } catch (err) {
      if (task.signal.aborted) throw task.signal.reason;
      if (err instanceof PageImageError || (err instanceof TesseractError && err.failure === 'input')) throw new ImageSkipped(err.message);
      if (err instanceof TesseractError) throw new JobFailure(err.message);
      throw err;
    }
  }
}

/**
 * The job's uploaded model linked into the image's folder as `tessdata/<language>.traineddata`,
 * where Tesseract looks a language up (named `model` when it has no language, as on the server).
 */
async function modelOf(task: ImageTask): Promise<TesseractModel> {
  const model = task.models.tesseract4model;
  if (!model) return { language: DEFAULT_TESSERACT_LANGUAGE };
  const language = model.language ?? 'model';
  const tessdataDir = path.join(task.workDir, 'tessdata');
  await fsp.mkdir(tessdataDir, { recursive: true });
  await fsp.symlink(model.path, path.join(tessdataDir, `${language}.traineddata`));
  return { language, tessdataDir };
}
