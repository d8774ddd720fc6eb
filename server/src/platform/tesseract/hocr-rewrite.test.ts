import { describe, expect, it } from 'vitest';
import { parseHocr } from '../../modules/uploads/hocr.js';
import { rewriteHocr } from './hocr-rewrite.js';
import { wordsOfTsv } from './recognise.js';

/** hOCR as Tesseract 5 writes it (titles in single quotes on pages and words, double on lines). */
const HOCR = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
 <head>
  <title></title>
  <meta name='ocr-system' content='tesseract 5.3.0' />
  <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
 </head>
 <body>
  <div class='ocr_page' id='page_1' title='image "/tmp/pim-job-x/page-0.tif"; bbox 0 0 1000 500; ppageno 0; scan_res 70 70'>
   <div class='ocr_carea' id='block_1_1' title="bbox 50 40 610 95">
    <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 50 40 610 95">
     <span class='ocr_line' id='line_1_1' title="bbox 50 40 610 95; baseline 0.01 -12; x_size 54; x_descenders 11; x_ascenders 13">
      <span class='ocrx_word' id='word_1_1' title='bbox 50 40 153 84; x_wconf 95'>bbox</span>
      <span class='ocrx_word' id='word_1_2' title='bbox 176 40 610 95; x_wconf 93'>1 2 3 4 &amp; more</span>
     </span>
    </p>
   </div>
  </div>
 </body>
</html>`;

describe('rewriteHocr', () => {
  it('names the image by its own file and leaves everything else as Tesseract wrote it when nothing was scaled', () => {
    const out = rewriteHocr(HOCR, { imageName: "f. 2r & 'verso'.png", scaleX: 1, scaleY: 1 });
    expect(out).toContain(`title='image "f. 2r &amp; &apos;verso&apos;.png"; bbox 0 0 1000 500; ppageno 0; scan_res 70 70'`);
    expect(out).toContain('title="bbox 50 40 610 95; baseline 0.01 -12; x_size 54; x_descenders 11; x_ascenders 13"');
    const page = parseHocr(out);
    expect(page).toMatchObject({ imageFilename: "f. 2r & 'verso'.png", pageWidth: 1000, pageHeight: 500 });
    expect(page.regions[0]!.lines[0]!.text).toBe('bbox 1 2 3 4 & more');
  });

  it('scales boxes, baselines and heights back to the image when Tesseract read a downscaled copy', () => {
    const out = rewriteHocr(HOCR, { imageName: 'p.png', scaleX: 2, scaleY: 3 });
    const page = parseHocr(out);
    expect(page).toMatchObject({ pageWidth: 2000, pageHeight: 1500 });
    const line = page.regions[0]!.lines[0]!;
    expect(line.coords).toBe('100,120 1220,120 1220,285 100,285');
    // The slope in pixels per pixel changes with the axes' ratio, the offset with y.
    expect(out).toContain('baseline 0.015 -36; x_size 162; x_descenders 33; x_ascenders 39');
    expect(line.words.map((w) => [w.coords, w.confidence])).toEqual([
      ['100,120 306,120 306,252 100,252', 95],
      ['352,120 1220,120 1220,285 352,285', 93],
    ]);
  });
});

describe('wordsOfTsv', () => {
  it("gives each listed image its words with their boxes and confidences, skipping Tesseract's other levels", () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t720\t90\t-1\t',
      '4\t1\t1\t1\t1\t0\t16\t17\t580\t55\t-1\t',
      '5\t1\t1\t1\t1\t1\t16\t17\t103\t44\t96.284286\tThe',
      '5\t1\t1\t1\t1\t2\t142\t17\t153\t55\t91.5\tquick',
      '1\t2\t0\t0\t0\t0\t0\t0\t22\t22\t-1\t',
      '5\t3\t1\t1\t1\t1\t0\t0\t22\t22\t-1\t ',
      '5\t3\t1\t1\t1\t2\t1\t2\t3\t4\t-1\tx',
      '5\t9\t1\t1\t1\t1\t1\t2\t3\t4\t50\tbeyond',
      '',
    ].join('\n');
    expect(wordsOfTsv(tsv, 3)).toEqual([
      [
        { left: 16, top: 17, width: 103, height: 44, confidence: 96.284286, text: 'The' },
        { left: 142, top: 17, width: 153, height: 55, confidence: 91.5, text: 'quick' },
      ],
      [],
      [{ left: 1, top: 2, width: 3, height: 4, confidence: null, text: 'x' }],
    ]);
  });
});
