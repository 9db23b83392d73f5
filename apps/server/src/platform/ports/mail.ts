/**
 * The mail port: what the platform and the domains send mail through. adapters/mail implements it
 * (the outbox, SMTP); the composition root (bootstrap.ts) picks one.
 */

/** A file sent with a message (e.g. a certificate PDF). */
export interface MailAttachment {
  filename: string;
  content: Uint8Array;
  contentType?: string;
}

/** A message to one recipient. `text` is always present; `html` and attachments are optional. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}
