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
  /**
   * The invitation. Nothing the operator chose (its name, the inviter's name or address) appears in it: a sign-up is
   * free, so that text is an attacker's, and a mail client turns "evil.example/unlock" into a link. The invitee learns
   * the operator's name in the portal itself, once the invitation is accepted. Only verified owners can invite.
   */
  invite(to: string, role: 'owner' | 'member', link: string): OutgoingMail {
    return {
      to,
      subject: 'You are invited to a team on the Expedition Insurance operator portal',
      text: [
        `You were invited to join a tour operator's team on the Expedition Insurance operator portal, as ${role === 'owner' ? 'an owner' : 'a member'}.`,
        '',
        'Accept the invitation and choose your password here (valid 7 days); the portal then shows you the team:',
        link,
        '',
        'If you did not expect this, ignore this message. We never ask you to unlock or confirm an account through an invitation.',
      ].join('\n'),
    };
  },
  signInLink(to: string, link: string): OutgoingMail {
    return {
      to,
      subject: 'Sign in to the operator portal',
      text: [
        'There were many failed attempts to log in to your operator portal account, so log-ins with its password are',
        'paused for up to an hour.',
        '',
        'If you are trying to log in, use this one-time link instead (it works once, for 1 hour):',
        link,
        '',
        'If it was not you, someone is guessing your password: sign in with the link and change your password.',
      ].join('\n'),
    };
  },
};
