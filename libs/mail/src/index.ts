export {
  createOutboxMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  type MailAttachment,
  mailDomainOf,
  type Mailer,
  mailerFromConfig,
  outboxDirOf,
  type OutboxMailer,
  type OutgoingMail,
} from './mailer';
