// The mailer moved to libs/mail (one mail stack for the platform); the portal's modules keep importing it from here.
export {
  createOutboxMailer,
  createSmtpMailer,
  type Mailer,
  type OutboxMailer,
  type OutgoingMail,
} from '@expedition/mail';
