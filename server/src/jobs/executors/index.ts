import type { ExecutorRegistry } from '../executor.js';
import { convertToTiledTiff } from './convert-to-tiled-tiff.js';
import { createSetForSiameseNetwork } from './create-set-for-siamese-network.js';
import { elasticSearchRemoveIndex } from './elastic-search-remove-index.js';
import { epubify } from './epubify.js';
import { generateManifests } from './generate-manifests.js';
import { harvestIiif } from './harvest-iiif.js';
import { pipelineKb2 } from './pipeline-kb2.js';
import { recalculateReadingOrderNew } from './recalculate-reading-order-new.js';
import { redoTesseract4ExistingPageXml } from './redo-tesseract4-existing-page-xml.js';
import { scriptCompare } from './script-compare.js';
import { sendToElasticSearch } from './send-to-elastic-search.js';
import { setBrokenNull } from './set-broken-null.js';
import { siameseNetwork } from './siamese-network.js';
import { splitPdf } from './split-pdf.js';
import { tesseract4Hocr } from './tesseract4-hocr.js';

/**
 * The executors of the job types this server runs itself, one file each in this folder. The
 * built-in worker claims exactly these types; the others wait for a remote worker that serves them.
 */
export const executors: ExecutorRegistry = {
  Tesseract4Hocr: tesseract4Hocr,
  RedoTesseract4ExistingPageXML: redoTesseract4ExistingPageXml,
  SplitPDF: splitPdf,
  ConvertToTiledTiff: convertToTiledTiff,
  GenerateManifests: generateManifests,
  SetBrokenNull: setBrokenNull,
  RecalculateReadingOrderNew: recalculateReadingOrderNew,
  Epubify: epubify,
  PipelineKB2: pipelineKb2,
  HarvestIIIF: harvestIiif,
  CreateSetForSiameseNetwork: createSetForSiameseNetwork,
  SiameseNetwork: siameseNetwork,
  ScriptCompare: scriptCompare,
  SendToElasticSearch: sendToElasticSearch,
  ElasticSearchRemoveIndex: elasticSearchRemoveIndex,
};
