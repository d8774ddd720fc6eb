-- PDFs split by a job (SplitPDF): the upload keeps a long PDF and leaves its pages to a job, which
-- adds the pages not there yet. A PDF's pages are found by the PDF's file and page number.

-- True while a SplitPDF job has still to add the PDF's pages; PDFs split in the upload are done.
ALTER TABLE image_set_file ADD COLUMN pages_pending boolean NOT NULL DEFAULT false;

CREATE INDEX document_image_source_pdf_idx ON document_image (source_pdf_file_id, page_number)
  WHERE source_pdf_file_id IS NOT NULL;
