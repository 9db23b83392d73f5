import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { registerJobHandler } from '../../platform/jobs';
import { formatInr } from './money-text';
import { RECEIPT_JOB, reload } from './store';

/**
 * The receipt mail of a paid order. Registered when the payments routes load, so the job runner
 * knows it from the start; the PDF (pdf-lib and the fonts) loads with the first receipt it makes.
 */
registerJobHandler(RECEIPT_JOB, async (deps, payload) => {
  const p = await reload(deps.db, Number(payload.payment_id));
  if (!p?.user_id) return;
  const [u] = await deps.db.select().from(users).where(eq(users.id, p.user_id));
  if (!u) return;
  const pdf = await (await import('./receipt')).receiptPdf(deps, p);
  await deps.mail.send({
    to: u.email,
    subject: `Your receipt ${p.receipt_no}`,
    text: `Hello ${u.first_name},\n\nThank you for your payment of ${formatInr(p.amount_paise)}. Your receipt ${p.receipt_no} is attached.\n\n${deps.config.RECEIPT_SELLER}\n`,
    attachments: [{ filename: pdf.fileName, content: pdf.bytes, contentType: 'application/pdf' }],
  });
});
