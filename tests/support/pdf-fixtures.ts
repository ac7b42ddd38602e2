/** Small PDFs written by hand for tests: text layers, embedded scans, empty, encrypted. */

/** A PDF from object bodies (text or binary), numbered 1..n; object 1 is the catalog. */
export function assemblePdf(objects: Array<string | Buffer>, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Buffer | string) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(b);
    length += b.length;
  };
  push('%PDF-1.4\n');
  objects.forEach((obj, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    push(obj);
    push('\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

const stream = (content: string, dict = '') => `<< /Length ${Buffer.byteLength(content, 'latin1')} ${dict}>>\nstream\n${content}\nendstream`;

/** A PDF whose pages carry the given lines as real text. */
export function textPdf(pages: string[][]): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (const lines of pages) {
    const content = `BT /F1 14 Tf ${lines.map((l, i) => `1 0 0 1 72 ${740 - i * 20} Tm (${l}) Tj`).join(' ')} ET`;
    objects.push(stream(content));
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`;
  return assemblePdf(objects);
}

/**
 * A one-page text PDF whose font's ToUnicode maps `~` to U+0000 and `^` to U+0007 (BEL), the rest
 * of printable ASCII to itself, as a broken PDF generator writes it: its text layer carries a NUL
 * wherever a line has a `~`, a BEL wherever it has a `^`.
 */
export function controlGlyphPdf(lines: string[]): Buffer {
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '2 beginbfrange <20> <5D> <0020> <5F> <7D> <005F> endbfrange',
    '2 beginbfchar <5E> <0007> <7E> <0000> endbfchar',
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const content = `BT /F1 14 Tf ${lines.map((l, i) => `1 0 0 1 72 ${740 - i * 20} Tm (${l}) Tj`).join(' ')} ET`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 4 0 R >>',
    stream(cmap),
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 6 0 R >>',
    stream(content),
  ]);
}

/** A PDF with one page showing a JPEG (a scanned receipt): no text layer. */
export function scannedPdf(jpeg: Buffer, width: number, height: number): Buffer {
  const scale = 500 / Math.max(width, height);
  const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
  const content = `q ${w} 0 0 ${h} 50 50 cm /Im1 Do Q`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w + 100} ${h + 100}] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`,
    stream(content),
    Buffer.concat([
      Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`, 'latin1'),
      jpeg,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

export function emptyPdf(): Buffer {
  return assemblePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
}

/** Encrypted with a user password (the /U entry matches no empty password). */
export function encryptedPdf(): Buffer {
  const pad = (c: string) => `<${c.repeat(64)}>`;
  return assemblePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      `<< /Filter /Standard /V 1 /R 2 /O ${pad('a')} /U ${pad('b')} /P -4 >>`,
    ],
    '/Encrypt 3 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] ',
  );
}
