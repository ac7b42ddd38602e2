import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APPROVAL_LABELS, formatMoney, REPORT_STATUS_LABELS, type ReportDetail } from '@receipts/common';
import PDFDocument from 'pdfkit';
// Helvetica, a PDF standard font, writes the same Windows-1252 characters Courier does.
import { courierText as pdfText } from '../intake/mail-body.renderer.js';

const MARGIN = 50;
const PAGE = { width: 595.28, height: 841.89 };
const BOTTOM = PAGE.height - MARGIN;
const ROW = 16;

/** The receipts table: each column's left edge, width and alignment. */
const COLUMNS = [
  { header: 'Date', x: MARGIN, width: 64, align: 'left' },
  { header: 'Merchant', x: 118, width: 170, align: 'left' },
  { header: 'Category', x: 292, width: 86, align: 'left' },
  { header: 'Total', x: 380, width: 80, align: 'right' },
  { header: 'Approval', x: 470, width: 75, align: 'left' },
] as const;

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/**
 * A report as an approver files it: what it is, who submitted and decided it, each receipt with
 * its total and approval (and a decision's comment under it), and each currency's total. Text in
 * scripts a standard PDF font cannot write shows as `?`.
 */
export async function writeReportPdf(out: Writable, report: ReportDetail, workspace: string, now = new Date()): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: pdfText(report.name).slice(0, 200), Producer: 'Receipts' } });
  const written = pipeline(doc, out);
  // One line each, cut to its width with an ellipsis: a long merchant or comment never runs into the next row.
  const fit = (value: string, width: number) => {
    let line = pdfText(value);
    if (doc.widthOfString(line) <= width) return line;
    while (line.length > 0 && doc.widthOfString(`${line}…`) > width) line = line.slice(0, -1);
    return `${line.trimEnd()}…`;
  };
  const text = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions & { width?: number } = {}) =>
    doc.text(fit(value, options.width ?? PAGE.width - MARGIN - x), x, y, { lineBreak: false, ...options });

  doc.font('Helvetica-Bold').fontSize(18);
  doc.text(pdfText(report.name), MARGIN, MARGIN, { width: PAGE.width - 2 * MARGIN });
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  const facts = [
    `Workspace: ${workspace}`,
    `Period: ${report.from} to ${report.to}`,
    `Submitted by ${report.submitter ?? 'a former member'} on ${day(report.submittedAt)}`,
    `Status: ${REPORT_STATUS_LABELS[report.status]}${report.decidedAt ? ` (${report.decidedBy ?? 'an approver'}, ${day(report.decidedAt)})` : ''}`,
    ...(report.comment ? [`Comment: ${report.comment}`] : []),
  ];
  for (const line of facts) doc.text(pdfText(line), { width: PAGE.width - 2 * MARGIN });

  let y = doc.y + 14;
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(9);
    for (const c of COLUMNS) text(c.header, c.x, y, { width: c.width, align: c.align });
    doc
      .moveTo(MARGIN, y + 12)
      .lineTo(PAGE.width - MARGIN, y + 12)
      .stroke();
    y += ROW;
    doc.font('Helvetica').fontSize(9);
  };
  const room = (needed: number) => {
    if (y + needed <= BOTTOM) return;
    doc.addPage();
    y = MARGIN;
    header();
  };
  header();
  for (const r of report.items) {
    room(ROW);
    const cells = [r.date ?? '', r.merchantName ?? r.filename, r.category, r.total == null ? '' : formatMoney(r.total, r.currency ?? 'USD'), APPROVAL_LABELS[r.approval.status]];
    COLUMNS.forEach((c, i) => text(cells[i]!, c.x, y, { width: c.width, align: c.align }));
    y += ROW;
    if (r.approval.comment) {
      room(ROW);
      doc.fillColor('#555555');
      text(`${r.approval.decidedBy ?? 'Approver'}: ${r.approval.comment}`, COLUMNS[1].x, y - 3, { width: PAGE.width - MARGIN - COLUMNS[1].x });
      doc.fillColor('black');
      y += ROW - 3;
    }
  }
  if (report.items.length === 0) {
    text('No receipts are left in this report.', MARGIN, y);
    y += ROW;
  }

  room(ROW * (report.totals.length + 2));
  y += 6;
  doc.font('Helvetica-Bold').fontSize(10);
  for (const { currency, total } of report.totals) {
    text(`Total ${currency}`, COLUMNS[2].x, y, { width: COLUMNS[2].width });
    text(formatMoney(total, currency), COLUMNS[3].x, y, { width: COLUMNS[3].width, align: 'right' });
    y += ROW;
  }
  doc.font('Helvetica').fontSize(8).fillColor('#555555');
  text(`${report.receipts} receipt${report.receipts === 1 ? '' : 's'} · made by Receipts on ${day(now.toISOString())}`, MARGIN, y + 8);
  doc.end();
  await written;
}
