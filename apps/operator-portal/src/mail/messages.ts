import type { OutgoingMail } from './mailer';

/** The portal's e-mails: plain text, one link each, no secret but that link. */
export const messages = {
  verifyEmail(to: string, link: string): OutgoingMail {
    return {
      to,
      subject: 'Confirm your e-mail address',
      text: [
        'Welcome to the Expedition Insurance operator portal.',
        '',
        'Confirm your e-mail address by opening this link (valid 48 hours):',
        link,
        '',
        'If you did not sign up, ignore this message.',
      ].join('\n'),
    };
  },
  passwordReset(to: string, link: string): OutgoingMail {
    return {
      to,
      subject: 'Reset your password',
      text: [
        'Someone (hopefully you) asked to reset the password of your operator portal account.',
        '',
        'Choose a new password here (the link works once, for 1 hour):',
        link,
        '',
        'Resetting signs you out everywhere. If you did not ask for this, ignore this message: your password is unchanged.',
      ].join('\n'),
    };
  },
  passwordChanged(to: string): OutgoingMail {
    return {
      to,
      subject: 'Your password was changed',
      text: [
        'The password of your operator portal account was just changed, and your other sessions were signed out.',
        '',
        'If this was not you, reset your password at once and tell your team owner.',
      ].join('\n'),
    };
  },
  invite(to: string, operatorName: string, inviter: string, role: string, link: string): OutgoingMail {
    return {
      to,
      subject: `You are invited to ${operatorName} on the operator portal`,
      text: [
        `${inviter} invited you to join ${operatorName} as ${role === 'owner' ? 'an owner' : 'a member'}.`,
        '',
        'Accept the invitation and choose your password here (valid 7 days):',
        link,
        '',
        'If you did not expect this, ignore this message.',
      ].join('\n'),
    };
  },
};
