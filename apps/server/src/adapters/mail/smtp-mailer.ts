import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

const require = createRequire(import.meta.url);

/** Production engine: any SMTP server, configured by one URL (smtp://user:pass@host:port). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // required here, not imported: nodemailer loads only on a server configured with SMTP_URL
    this.transport = (require('nodemailer') as typeof Nodemailer).createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    const { attachments, ...rest } = message;
    await this.transport.sendMail({
      from: this.from,
      ...rest,
      ...(attachments?.length
        ? {
            attachments: attachments.map((a) => ({
              filename: a.filename,
              content: Buffer.from(a.content),
              contentType: a.contentType,
            })),
          }
        : {}),
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
