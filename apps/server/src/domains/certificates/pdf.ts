import { PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import { PdfText, printable, type TextLine } from '../../platform/pdf-text';

/** What a certificate prints. Everything comes from the certificates row, so a re-download is identical. */
export interface CertificateFacts {
  user_name: string;
  training_name: string;
  issuer_name: string;
  signatory_name: string;
  signatory_title: string;
  start_date: Date;
  end_date: Date;
  issued_at: Date;
  ref_no: string;
  verify_url: string;
}

const NAVY = rgb(0.1, 0.17, 0.33);
const GOLD = rgb(0.72, 0.56, 0.22);
const INK = rgb(0.15, 0.15, 0.18);
const MUTED = rgb(0.38, 0.4, 0.45);

/** Dates print in UTC (the server keeps no per-tenant time zone): '18 April 2023'. */
export const printDate = (d: Date): string =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);

export { printable };

function centred(page: PDFPage, line: TextLine, size: number, y: number, color = INK, maxWidth = 680) {
  let s = size;
  while (s > 10 && line.widthAt(s) > maxWidth) s -= 1;
  line.draw(page, { x: (page.getWidth() - line.widthAt(s)) / 2, y, size: s, color });
}

function drawQr(page: PDFPage, url: string, x: number, y: number, size: number) {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = size / n;
  page.drawRectangle({ x: x - 4, y: y - 4, width: size + 8, height: size + 8, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!qr.modules.get(row, col)) continue;
      // QR rows run top-down, PDF y runs bottom-up.
      page.drawRectangle({ x: x + col * cell, y: y + size - (row + 1) * cell, width: cell, height: cell, color: INK });
    }
  }
}

/** A landscape A4 certificate of completion: pure function of its facts. */
export async function renderCertificatePdf(f: CertificateFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([841.89, 595.28]);
  const { width: W, height: H } = page.getSize();
  const serif = await doc.embedFont(StandardFonts.TimesRoman);
  const serifBold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const serifItalic = await doc.embedFont(StandardFonts.TimesRomanBoldItalic);
  const sans = await doc.embedFont(StandardFonts.Helvetica);
  const sansBold = await doc.embedFont(StandardFonts.HelveticaBold);

  const pdfText = new PdfText(doc);
  const line = pdfText.line.bind(pdfText);
  const userName = await line(f.user_name, serifItalic, 'bold');
  const trainingName = await line(f.training_name, serifBold, 'bold');

  // document properties are Unicode strings: they keep the names as they are
  doc.setTitle(`Certificate of Completion - ${userName.text}`);
  doc.setSubject(`${trainingName.text} (${f.ref_no})`);
  doc.setAuthor((await line(f.issuer_name, sans)).text);
  doc.setCreator('TrainLab');
  doc.setProducer('TrainLab');
  doc.setCreationDate(f.issued_at);
  doc.setModificationDate(f.issued_at);

  // frame: a navy band, a gold rule inside it, small corner ornaments
  page.drawRectangle({ x: 0, y: 0, width: W, height: H, color: rgb(0.99, 0.98, 0.95) });
  page.drawRectangle({ x: 18, y: 18, width: W - 36, height: H - 36, borderColor: NAVY, borderWidth: 10 });
  page.drawRectangle({ x: 34, y: 34, width: W - 68, height: H - 68, borderColor: GOLD, borderWidth: 1.5 });
  for (const [cx, cy] of [
    [34, 34],
    [W - 34, 34],
    [34, H - 34],
    [W - 34, H - 34],
  ] as const) {
    page.drawRectangle({ x: cx - 6, y: cy - 6, width: 12, height: 12, color: GOLD });
  }

  centred(page, await line(f.issuer_name.toUpperCase(), sansBold, 'bold'), 13, H - 86, NAVY);
  centred(page, await line('Certificate of Completion', serifBold, 'bold'), 42, H - 150, NAVY);
  page.drawLine({
    start: { x: W / 2 - 150, y: H - 166 },
    end: { x: W / 2 + 150, y: H - 166 },
    thickness: 1.5,
    color: GOLD,
  });

  centred(page, await line('This is to certify that', serif), 16, H - 210, MUTED);
  centred(page, userName, 38, H - 262, INK, 620);
  page.drawLine({
    start: { x: W / 2 - 220, y: H - 274 },
    end: { x: W / 2 + 220, y: H - 274 },
    thickness: 0.75,
    color: MUTED,
  });
  centred(page, await line('has successfully completed the training', serif), 16, H - 306, MUTED);
  centred(page, trainingName, 26, H - 344, NAVY, 640);
  centred(
    page,
    await line(`held from ${printDate(f.start_date)} to ${printDate(f.end_date)}`, serif),
    15,
    H - 378,
    INK,
  );
  centred(page, await line(`conducted by ${f.issuer_name}`, serif), 15, H - 400, INK);

  // signatory (left) and date of issue (centre)
  const sigX = 110;
  const lineY = 138;
  (await line(f.signatory_name, serifItalic, 'bold')).draw(page, { x: sigX, y: lineY + 8, size: 16, color: NAVY });
  page.drawLine({ start: { x: sigX, y: lineY }, end: { x: sigX + 210, y: lineY }, thickness: 0.9, color: INK });
  (await line(f.signatory_name, sansBold, 'bold')).draw(page, { x: sigX, y: lineY - 16, size: 11, color: INK });
  (await line(f.signatory_title, sans)).draw(page, { x: sigX, y: lineY - 30, size: 10, color: MUTED });
  (await line(f.issuer_name, sans)).draw(page, { x: sigX, y: lineY - 43, size: 10, color: MUTED });

  const dateX = 360;
  page.drawText(printDate(f.issued_at), { x: dateX, y: lineY + 8, size: 13, font: serif, color: INK });
  page.drawLine({ start: { x: dateX, y: lineY }, end: { x: dateX + 150, y: lineY }, thickness: 0.9, color: INK });
  page.drawText('Date of issue', { x: dateX, y: lineY - 16, size: 11, font: sansBold, color: INK });

  // QR and reference (bottom right)
  const qrSize = 92;
  const qrX = W - 60 - qrSize;
  const qrY = 92;
  drawQr(page, f.verify_url, qrX, qrY, qrSize);
  const ref = `Certificate No. ${f.ref_no}`;
  page.drawText(ref, {
    x: qrX + qrSize - sansBold.widthOfTextAtSize(ref, 9),
    y: qrY - 16,
    size: 9,
    font: sansBold,
    color: INK,
  });
  const verify = printable(`Verify: ${f.verify_url}`);
  page.drawText(verify, {
    x: W - 50 - sans.widthOfTextAtSize(verify, 7.5),
    y: 46,
    size: 7.5,
    font: sans,
    color: MUTED,
  });

  return doc.save();
}
