export {
  createOutboxMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  mailDomainOf,
  mailerFromConfig,
  outboxDirOf,
  SMTP_TIMEOUTS_MS,
  type MailAttachment,
  type Mailer,
  type OutboxMailer,
  type OutgoingMail,
} from './mailer';
