/** The mail port lives on the platform floor (platform/ports/mail.ts); the engines here implement it. */
export type { MailAttachment, Mailer, MailMessage } from '../../platform/ports/mail';
