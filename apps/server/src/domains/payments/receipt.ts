import { PAYMENT_STATUS_LABEL } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { billingSettings, organizations, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { PdfText } from '../../platform/pdf-text';
import { formatInr } from './money-text';
import { itemsOf, type Payment } from './store';

/** The PDF receipt of a payment: seller, payer, items, GST included at the payment's rate, status. */
export async function receiptPdf(deps: Deps, p: Payment): Promise<{ bytes: Uint8Array; fileName: string }> {
  const items = (await itemsOf(deps.db, [p.id])).get(p.id) ?? [];
  const [payer] = p.user_id
    ? await deps.db
        .select({ first_name: users.first_name, last_name: users.last_name, email: users.email })
        .from(users)
        .where(eq(users.id, p.user_id))
    : [];
  const [org] = p.organization_id
    ? await deps.db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, p.organization_id))
    : [];
  const [settings] = p.owner_user_id
    ? await deps.db.select().from(billingSettings).where(eq(billingSettings.owner_user_id, p.owner_user_id))
    : p.organization_id
      ? await deps.db.select().from(billingSettings).where(eq(billingSettings.organization_id, p.organization_id))
      : [];

  const doc = await PDFDocument.create();
  doc.setTitle(`Receipt ${p.receipt_no}`);
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pdfText = new PdfText(doc);
  let y = 780;
  // names, item titles and organisations print in their own script (see platform/pdf-text)
  const line = async (text: string, opts: { x?: number; size?: number; bold?: boolean } = {}) => {
    const l = await pdfText.line(text, opts.bold ? bold : font, opts.bold ? 'bold' : 'regular');
    l.draw(page, { x: opts.x ?? 50, y, size: opts.size ?? 11, color: rgb(0.1, 0.1, 0.1) });
  };
  await line(p.status === 1 ? 'Payment receipt' : 'Payment record', { size: 22, bold: true });
  y -= 30;
  await line(deps.config.RECEIPT_SELLER, { bold: true });
  if (settings?.gstin) await line(`GSTIN ${settings.gstin}`, { x: 350 });
  y -= 18;
  await line(`Receipt no. ${p.receipt_no}`);
  await line(`Date ${(p.paid_at ?? p.created_at).toISOString().slice(0, 10)}`, { x: 350 });
  y -= 18;
  await line(`Status ${PAYMENT_STATUS_LABEL[p.status] ?? p.status}`);
  await line(`Order ${p.gateway_order_id}`, { x: 350, size: 9 });
  y -= 18;
  if (p.gateway_payment_id) {
    await line(`Payment ${p.gateway_payment_id}`, { size: 9 });
    y -= 18;
  }
  if (payer)
    await line(`Billed to ${payer.first_name} ${payer.last_name} <${payer.email}>${org ? `, ${org.name}` : ''}`);
  y -= 34;
  await line('Item', { bold: true });
  await line('Amount', { x: 450, bold: true });
  y -= 6;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5 });
  for (const i of items) {
    y -= 18;
    if (y < 120) break;
    const name = [...i.name];
    await line(name.length > 70 ? `${name.slice(0, 67).join('')}...` : i.name);
    await line(formatInr(i.amount_paise), { x: 450 });
  }
  y -= 10;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5 });
  y -= 18;
  await line('Taxable value', { x: 300 });
  await line(formatInr(p.amount_paise - p.tax_paise), { x: 450 });
  y -= 18;
  await line(`GST ${(p.gst_bp / 100).toFixed(2)}% (included)`, { x: 300 });
  await line(formatInr(p.tax_paise), { x: 450 });
  y -= 18;
  await line('Total', { x: 300, bold: true });
  await line(formatInr(p.amount_paise), { x: 450, bold: true });
  if (p.refunded_paise > 0) {
    y -= 18;
    await line('Refunded', { x: 300 });
    await line(formatInr(p.refunded_paise), { x: 450 });
  }
  return { bytes: await doc.save(), fileName: `receipt-${p.receipt_no}.pdf` };
}
