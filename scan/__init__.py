"""The document engine: pages read from files, cleaned, OCR'd (Tesseract, a second look,
one script re-read), marks and glyphs, PII found and boxed, masks drawn. Below the features:
`nodes/documents/` holds the graph's steps."""
